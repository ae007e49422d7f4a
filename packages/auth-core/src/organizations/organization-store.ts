import { randomBytes, randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import { hashAccountToken } from "../mail/account-tokens.js";
import type { AnyDB, Database } from "../store/database.js";
import { ORGANIZATION_TABLES } from "../store/organization-tables.js";
import type { ListPosition } from "../store/record-lists.js";
import { selectRows } from "../store/select-rows.js";
import { writeTransaction } from "../store/transaction.js";

const { organizations: ORGANIZATIONS, memberships: MEMBERSHIPS, invitations: INVITATIONS } = ORGANIZATION_TABLES;

/** An organization's row. */
export interface OrganizationRow {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly createdAt: string;
}

/** A member: their user id, e-mail (from the users table), organization role and when they joined. */
export interface MemberRow {
  readonly userId: string;
  readonly email: string;
  readonly role: string;
  readonly createdAt: string;
}

/** A pending invitation's row (never its token: only the SHA-256 of it is stored). */
export interface InvitationRow {
  readonly id: string;
  readonly organizationId: string;
  readonly email: string;
  readonly role: string;
  readonly invitedBy: string | null;
  readonly createdAt: string;
  readonly expiresAt: number;
}

/** What a request learns of an organization in one read: that it exists, and the caller's role in it (`null`: not a member). */
export interface OrganizationAccess {
  readonly role: string | null;
}

/** How long an invitation's link works (docs/organizations.md#invitations): 7 days. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Organizations, their memberships and invitations (docs/organizations.md), on the tables of
 * `store/organization-tables.ts`. Changes to one organization's members run in a transaction that
 * first locks the organization's row (PostgreSQL; SQLite serializes writers), so the count of its
 * first role a change is checked against holds until it commits.
 */
export class OrganizationStore {
  private readonly accessSql: string;

  constructor(
    private readonly database: Database,
    private readonly users: EntityModel,
  ) {
    // Built once: the hot path of every request to a tenant entity, one read by primary keys.
    this.accessSql = database.db
      .selectFrom(`${ORGANIZATIONS} as o`)
      .leftJoin(`${MEMBERSHIPS} as m`, (join) => join.onRef("m.organizationId", "=", "o.id").on("m.userId", "=", "caller"))
      .select(["o.id as id", "m.role as role"])
      .where("o.id", "=", "organization")
      .compile().sql;
  }

  private get db(): Kysely<AnyDB> {
    return this.database.db;
  }

  /** The organization `id` and `userId`'s role in it, in one read; `null` when it does not exist. */
  async access(id: string, userId: string | null): Promise<OrganizationAccess | null> {
    if (!isPossibleId(id)) return null;
    const rows = await selectRows<{ id: string; role: string | null }>(this.database, this.accessSql, [userId ?? "", id]);
    const row = rows[0];
    return row ? { role: row.role ?? null } : null;
  }

  /** Creates an organization with `userId` as its first member, holding `role`; `within` commits with it. */
  async create(
    values: { readonly name: string; readonly slug: string },
    member: { readonly userId: string; readonly role: string },
    within: (trx: Kysely<AnyDB>, organization: OrganizationRow) => Promise<void>,
  ): Promise<OrganizationRow> {
    const now = new Date().toISOString();
    const organization: OrganizationRow = { id: randomUUID(), name: values.name, slug: values.slug, createdAt: now };
    await writeTransaction(this.database, async (trx) => {
      await trx
        .insertInto(ORGANIZATIONS)
        .values({ ...organization, updatedAt: now })
        .execute();
      await trx
        .insertInto(MEMBERSHIPS)
        .values({ organizationId: organization.id, userId: member.userId, role: member.role, createdAt: now })
        .execute();
      await within(trx, organization);
    });
    return organization;
  }

  async find(id: string): Promise<OrganizationRow | undefined> {
    if (!isPossibleId(id)) return undefined;
    return (await this.db.selectFrom(ORGANIZATIONS).select(["id", "name", "slug", "createdAt"]).where("id", "=", id).executeTakeFirst()) as
      | OrganizationRow
      | undefined;
  }

  /** The organizations `userId` is a member of, with their role, oldest membership first. */
  async listFor(userId: string): Promise<(OrganizationRow & { readonly role: string })[]> {
    const rows = await this.db
      .selectFrom(`${MEMBERSHIPS} as m`)
      .innerJoin(`${ORGANIZATIONS} as o`, "o.id", "m.organizationId")
      .select(["o.id as id", "o.name as name", "o.slug as slug", "o.createdAt as createdAt", "m.role as role"])
      .where("m.userId", "=", userId)
      .orderBy("m.createdAt")
      .orderBy("o.id")
      .execute();
    return rows as (OrganizationRow & { role: string })[];
  }

  /** Renames an organization; `undefined` when it is gone. */
  async update(id: string, changes: { readonly name?: string; readonly slug?: string }): Promise<OrganizationRow | undefined> {
    await this.db
      .updateTable(ORGANIZATIONS)
      .set({ ...changes, updatedAt: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    return this.find(id);
  }

  /**
   * Deletes an organization that holds no record of any tenant entity (its memberships and
   * invitations go with it): `not-empty` otherwise. A record written meanwhile waits for the lock
   * on its organization's row (its foreign key), then finds it gone.
   */
  async remove(
    id: string,
    tenants: readonly EntityModel[],
    within: (trx: Kysely<AnyDB>) => Promise<void>,
  ): Promise<"deleted" | "not-empty" | "missing"> {
    return writeTransaction(this.database, async (trx) => {
      if (!(await this.lock(trx, id))) return "missing";
      if (await holdsRecords(trx, id, tenants)) return "not-empty";
      await within(trx);
      await trx.deleteFrom(ORGANIZATIONS).where("id", "=", id).execute();
      return "deleted";
    });
  }

  /** A page of members in the order they joined, after `after` (a member's `createdAt` and user id). */
  async members(
    id: string,
    options: { readonly limit: number; readonly after?: ListPosition },
  ): Promise<{ rows: MemberRow[]; next: ListPosition | null }> {
    let query = this.db
      .selectFrom(`${MEMBERSHIPS} as m`)
      .innerJoin(`${this.users.table} as u`, "u.id", "m.userId")
      .select(["m.userId as userId", "u.email as email", "m.role as role", "m.createdAt as createdAt"])
      .where("m.organizationId", "=", id);
    const { after } = options;
    if (after) query = query.where((eb) => eb(eb.refTuple("m.createdAt", "m.userId"), ">", eb.tuple(after.createdAt, after.id)));
    const rows = (await query
      .orderBy("m.createdAt")
      .orderBy("m.userId")
      .limit(options.limit + 1)
      .execute()) as MemberRow[];
    const page = rows.slice(0, options.limit);
    const last = page.at(-1);
    return { rows: page, next: rows.length > options.limit && last ? { createdAt: last.createdAt, id: last.userId } : null };
  }

  /**
   * Runs a change to an organization's members in one transaction, its row locked first (`null`
   * from `work` when the organization is gone).
   */
  changeMembers<T>(id: string, work: (members: MemberChange) => Promise<T>): Promise<T | null> {
    return writeTransaction(this.database, async (trx) => {
      if (!(await this.lock(trx, id))) return null;
      return work(new MemberChange(trx, id, this.users));
    });
  }

  /**
   * Records an invitation and returns its token (32 random bytes; only its SHA-256 is stored). A
   * pending invitation for the same e-mail in the organization is replaced: its link stops working.
   */
  async invite(
    values: { readonly organizationId: string; readonly email: string; readonly role: string; readonly invitedBy: string },
    now: number,
    guard: (members: MemberChange) => Promise<void>,
    within: (trx: Kysely<AnyDB>, invitation: InvitationRow) => Promise<void>,
  ): Promise<{ readonly invitation: InvitationRow; readonly token: string } | null> {
    const token = randomBytes(32).toString("base64url");
    const invitation: InvitationRow = {
      id: randomUUID(),
      ...values,
      createdAt: new Date(now).toISOString(),
      expiresAt: now + INVITATION_TTL_SECONDS * 1000,
    };
    return writeTransaction(this.database, async (trx) => {
      if (!(await this.lock(trx, values.organizationId))) return null;
      await guard(new MemberChange(trx, values.organizationId, this.users));
      await trx.deleteFrom(INVITATIONS).where("organizationId", "=", values.organizationId).where("email", "=", values.email).execute();
      await trx
        .insertInto(INVITATIONS)
        .values({ ...invitation, tokenHash: hashAccountToken(token) })
        .execute();
      await within(trx, invitation);
      return { invitation, token };
    });
  }

  /** The organization's invitations whose links still work, newest first. */
  async invitations(organizationId: string, now: number): Promise<InvitationRow[]> {
    return (await this.db
      .selectFrom(INVITATIONS)
      .select(["id", "organizationId", "email", "role", "invitedBy", "createdAt", "expiresAt"])
      .where("organizationId", "=", organizationId)
      .where("expiresAt", ">", now)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .execute()) as InvitationRow[];
  }

  /** Revokes one of the organization's invitations: `false` when it has none of that id. */
  async revokeInvitation(organizationId: string, id: string): Promise<boolean> {
    if (!isPossibleId(id)) return false;
    const result = await this.db
      .deleteFrom(INVITATIONS)
      .where("organizationId", "=", organizationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Spends the invitation of `token` in a transaction (deleted: single use), its organization's row
   * locked; `work` decides with it and runs the membership change. `null` for an unknown, expired,
   * used or replaced token.
   */
  async spendInvitation<T>(
    token: string,
    now: number,
    userId: string,
    work: (invitation: InvitationRow, members: MemberChange) => Promise<T>,
  ): Promise<T | null | "user-gone"> {
    const tokenHash = hashAccountToken(token);
    return writeTransaction(this.database, async (trx) => {
      // The accepting user's row first, the organization's after: the order a deletion of the user takes them in.
      if (!(await holdRow(trx, this.users.table, userId, this.database.dialect))) return "user-gone";
      const found = (await trx
        .selectFrom(INVITATIONS)
        .select(["id", "organizationId", "email", "role", "invitedBy", "createdAt", "expiresAt"])
        .where("tokenHash", "=", tokenHash)
        .executeTakeFirst()) as InvitationRow | undefined;
      if (!found || Number(found.expiresAt) <= now || !(await this.lock(trx, found.organizationId))) return null;
      // Spent by a conditional delete: of two acceptances at once, one finds it gone.
      const spent = await trx.deleteFrom(INVITATIONS).where("id", "=", found.id).where("tokenHash", "=", tokenHash).executeTakeFirst();
      if (Number(spent.numDeletedRows) === 0) return null;
      return work({ ...found, expiresAt: Number(found.expiresAt) }, new MemberChange(trx, found.organizationId, this.users));
    });
  }

  /** The organizations a user is a member of, in a transaction: for deleting the user. */
  async membershipsOf(trx: Kysely<AnyDB>, userId: string): Promise<{ organizationId: string; role: string }[]> {
    return (await trx
      .selectFrom(MEMBERSHIPS)
      .select(["organizationId", "role"])
      .where("userId", "=", userId)
      .orderBy("organizationId")
      .execute()) as { organizationId: string; role: string }[];
  }

  /** The change to one organization's members inside a transaction that already holds `trx`. */
  within(trx: Kysely<AnyDB>, organizationId: string): MemberChange {
    return new MemberChange(trx, organizationId, this.users);
  }

  /** Locks an organization's row until the transaction ends (PostgreSQL); `false` when it does not exist. */
  async lock(trx: Kysely<AnyDB>, id: string): Promise<boolean> {
    if (!isPossibleId(id)) return false;
    let query = trx.selectFrom(ORGANIZATIONS).select("id").where("id", "=", id);
    if (this.database.dialect === "postgres") query = query.forUpdate();
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Whether the organization holds records of any tenant entity (for deleting it, or an orphaned one). */
  holdsRecords(trx: Kysely<AnyDB>, id: string, tenants: readonly EntityModel[]): Promise<boolean> {
    return holdsRecords(trx, id, tenants);
  }

  /** Deletes an organization inside a transaction that holds its lock. */
  async removeLocked(trx: Kysely<AnyDB>, id: string): Promise<void> {
    await trx.deleteFrom(ORGANIZATIONS).where("id", "=", id).execute();
  }
}

/** The members of one organization inside a transaction that holds the organization's lock. */
export class MemberChange {
  constructor(
    readonly trx: Kysely<AnyDB>,
    readonly organizationId: string,
    private readonly users: EntityModel,
  ) {}

  /** One member, with their e-mail; `undefined` when the user is not a member. */
  async member(userId: string): Promise<MemberRow | undefined> {
    if (!isPossibleId(userId)) return undefined;
    return (await this.trx
      .selectFrom(`${MEMBERSHIPS} as m`)
      .innerJoin(`${this.users.table} as u`, "u.id", "m.userId")
      .select(["m.userId as userId", "u.email as email", "m.role as role", "m.createdAt as createdAt"])
      .where("m.organizationId", "=", this.organizationId)
      .where("m.userId", "=", userId)
      .executeTakeFirst()) as MemberRow | undefined;
  }

  /** How many members hold `role`. */
  async count(role?: string): Promise<number> {
    let query = this.trx
      .selectFrom(MEMBERSHIPS)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where("organizationId", "=", this.organizationId);
    if (role !== undefined) query = query.where("role", "=", role);
    return Number((await query.executeTakeFirstOrThrow()).total);
  }

  async add(userId: string, role: string): Promise<void> {
    await this.trx
      .insertInto(MEMBERSHIPS)
      .values({ organizationId: this.organizationId, userId, role, createdAt: new Date().toISOString() })
      .execute();
  }

  async setRole(userId: string, role: string): Promise<void> {
    await this.trx
      .updateTable(MEMBERSHIPS)
      .set({ role })
      .where("organizationId", "=", this.organizationId)
      .where("userId", "=", userId)
      .execute();
  }

  async remove(userId: string): Promise<void> {
    await this.trx.deleteFrom(MEMBERSHIPS).where("organizationId", "=", this.organizationId).where("userId", "=", userId).execute();
  }

  /** Ends the pending invitations `userId` sent here: they were made with a rank the user no longer holds. */
  async revokeInvitationsBy(userId: string): Promise<void> {
    await this.trx.deleteFrom(INVITATIONS).where("organizationId", "=", this.organizationId).where("invitedBy", "=", userId).execute();
  }
}

/**
 * Holds a row until the transaction ends (PostgreSQL: `for key share`, which a delete of it waits
 * for, or makes this find nothing); `false` when it is gone.
 */
async function holdRow(trx: Kysely<AnyDB>, table: string, id: string, dialect: Database["dialect"]): Promise<boolean> {
  let query = trx.selectFrom(table).select("id").where("id", "=", id);
  if (dialect === "postgres") query = query.forKeyShare();
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether organization `id` holds a record of one of the tenant entities. */
async function holdsRecords(trx: Kysely<AnyDB>, id: string, tenants: readonly EntityModel[]): Promise<boolean> {
  for (const entity of tenants) {
    const row = await trx
      .selectFrom(entity.table)
      .select(sql<number>`1`.as("found"))
      .where(ORGANIZATION_ID_FIELD, "=", id)
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/** Ids are UUIDs: anything longer, empty or holding U+0000 names nothing (PostgreSQL refuses U+0000 in text). */
function isPossibleId(id: string): boolean {
  return id.length > 0 && id.length <= 128 && !id.includes("\u0000");
}
