import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import type { AnyDB, Database } from "./database.js";
import { uniqueViolationColumn } from "./errors.js";
import { TABLES } from "./migrate.js";
import { type ListOptions, type ListPage, RecordLists } from "./record-lists.js";
import { holdRefTargets, type Referrer, type RefTarget, releaseReferences } from "./references.js";
import { fromRow, type StoredRecord, type StoredUser, toColumns, toStoredUser } from "./rows.js";
import { writeTransaction } from "./transaction.js";

/** A write clashed with a unique column. */
export class UniqueConflictError extends Error {
  override readonly name = "UniqueConflictError";
  constructor(
    readonly column: string,
    options?: { cause?: unknown },
  ) {
    super(`unique constraint on '${column}'`, options);
  }
}

/** Setup was requested but a user has already been created. */
export class SetupCompleteError extends Error {
  override readonly name = "SetupCompleteError";
}

/** How creating a record of the auth entity treats the setup flag. */
export type SetupMode = "first-user-only" | "mark-complete";

async function translateConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const column = uniqueViolationColumn(error);
    if (column !== undefined) throw new UniqueConflictError(column, { cause: error });
    throw error;
  }
}

/** The longest id a record can have; ours are UUIDs. */
const MAX_ID_LENGTH = 128;

/**
 * `false` for a string that cannot be any record's id. PostgreSQL refuses U+0000 in text outright,
 * so such ids are answered as "not found" without asking the database.
 */
function isPossibleId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_ID_LENGTH && !id.includes("\u0000");
}

/**
 * Options of a write: `refs` are the records its `ref` fields name, checked to exist (and kept from
 * being deleted) inside its transaction; `guard` runs inside the transaction before the write, with
 * the record as it is now, and may throw to abort.
 */
export interface WriteOptions extends RecordScope {
  readonly refs?: readonly RefTarget[];
  readonly guard?: (trx: Kysely<AnyDB>, current: StoredRecord) => Promise<void>;
}

/** Where a record is looked for: on a tenant entity, the organization of the request's path. */
export interface RecordScope {
  readonly organizationId?: string;
}

/** A query narrowed to `scope`'s organization on a tenant entity (a record of another is not there). */
function withinScope<Q extends { where: (column: string, op: "=", value: string) => Q }>(
  entity: EntityModel,
  query: Q,
  scope: RecordScope,
): Q {
  if (!entity.tenant) return query;
  // A tenant record is reached only through its organization: no scope finds none.
  return query.where(ORGANIZATION_ID_FIELD, "=", scope.organizationId ?? "");
}

/** How a transaction locks the record it writes (PostgreSQL): a delete also excludes new references to it. */
type RowLock = "update" | "delete";

/** Records of every entity, and the user-specific queries of the auth entity. */
export class RecordStore {
  private setupKnownComplete = false;
  private readonly lists: RecordLists;

  constructor(private readonly database: Database) {
    this.lists = new RecordLists(database);
  }

  private get db(): Kysely<AnyDB> {
    return this.database.db;
  }

  /** A page of records in `createdAt`, `id` order (by offset or after a position), and how many there are (see {@link RecordLists}). */
  list(entity: EntityModel, options: ListOptions): Promise<ListPage> {
    return this.lists.list(entity, options);
  }

  /** The record with this id; on a tenant entity, only within `scope.organizationId` (another organization's is not found). */
  async find(entity: EntityModel, id: string, scope: RecordScope = {}): Promise<StoredRecord | undefined> {
    if (!isPossibleId(id)) return undefined;
    const row = await withinScope(entity, this.db.selectFrom(entity.table).selectAll().where("id", "=", id), scope).executeTakeFirst();
    return row ? fromRow(entity, row) : undefined;
  }

  /** `true` when a record with this id exists (for `ref` checks), within `scope` as {@link find}. */
  async exists(entity: EntityModel, id: string, scope: RecordScope = {}): Promise<boolean> {
    if (!isPossibleId(id)) return false;
    const row = await withinScope(entity, this.db.selectFrom(entity.table).select("id").where("id", "=", id), scope).executeTakeFirst();
    return row !== undefined;
  }

  /** The user with this id, on the auth entity. */
  async findUser(entity: EntityModel, id: string): Promise<StoredUser | undefined> {
    const record = await this.find(entity, id);
    return record ? toStoredUser(record) : undefined;
  }

  /** The user with this (normalized) email, on the auth entity. */
  async findByEmail(entity: EntityModel, email: string): Promise<StoredUser | undefined> {
    const row = await this.db.selectFrom(entity.table).selectAll().where("email", "=", email).executeTakeFirst();
    return row ? toStoredUser(fromRow(entity, row)) : undefined;
  }

  /**
   * Inserts a record with a fresh random id. On the auth entity the setup flag is written in the
   * same transaction: `first-user-only` fails with {@link SetupCompleteError} once it is set.
   * `refs` as in {@link WriteOptions}; `within` runs in the insert's transaction, given the new
   * record, and commits with it (the event that records it).
   *
   * @throws {UniqueConflictError} when a unique column clashes.
   * @throws {MissingRefError} when a record named in `refs` does not exist.
   */
  async insert(
    entity: EntityModel,
    values: Record<string, unknown>,
    options: { setup?: SetupMode; refs?: readonly RefTarget[]; within?: (trx: Kysely<AnyDB>, record: StoredRecord) => Promise<void> } = {},
  ): Promise<StoredRecord> {
    const now = new Date().toISOString();
    const row = { ...toColumns(entity, values), id: randomUUID(), createdAt: now, updatedAt: now };
    const refs = options.refs ?? [];
    if (!entity.isAuthEntity && refs.length === 0 && !options.within) {
      await translateConflicts(() => this.db.insertInto(entity.table).values(row).execute());
      return fromRow(entity, row);
    }
    await translateConflicts(() =>
      writeTransaction(this.database, async (trx) => {
        await holdRefTargets(trx, this.database.dialect, refs);
        if (!entity.isAuthEntity) {
          await trx.insertInto(entity.table).values(row).execute();
          await options.within?.(trx, fromRow(entity, row));
          return;
        }
        const flag = trx.insertInto(TABLES.setup).values({ id: 1, completedAt: now });
        if (options.setup === "first-user-only") {
          const inserted = await flag.onConflict((conflict) => conflict.column("id").doNothing()).executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new SetupCompleteError("setup already complete");
        } else {
          await flag.onConflict((conflict) => conflict.column("id").doNothing()).execute();
        }
        await trx.insertInto(entity.table).values(row).execute();
        await options.within?.(trx, fromRow(entity, row));
      }),
    );
    return fromRow(entity, row);
  }

  /**
   * Updates some fields of a record and its `updatedAt`, in one write transaction. `guard` runs
   * first, with the record as it is now, and may throw to abort; `bumpTokenVersion` increments
   * the user's token version (so tokens issued before stop working).
   *
   * @returns the updated record, or `undefined` when it does not exist.
   * @throws {MissingRefError} when a record named in `refs` does not exist (checked first).
   */
  async update(
    entity: EntityModel,
    id: string,
    values: Record<string, unknown>,
    options: WriteOptions & { bumpTokenVersion?: boolean } = {},
  ): Promise<StoredRecord | undefined> {
    const changes: Record<string, unknown> = { ...toColumns(entity, values), updatedAt: new Date().toISOString() };
    if (options.bumpTokenVersion) changes.tokenVersion = sql`${sql.ref("tokenVersion")} + 1`;
    return translateConflicts(() =>
      writeTransaction(this.database, async (trx) => {
        // Targets before the row: a delete locks its row, then the rows that refer to it.
        await holdRefTargets(trx, this.database.dialect, options.refs ?? []);
        const current = await this.lockRow(trx, entity, id, "update", options);
        if (!current) return undefined;
        await options.guard?.(trx, current);
        await trx.updateTable(entity.table).set(changes).where("id", "=", id).execute();
        return this.lockRow(trx, entity, id, "update", options);
      }),
    );
  }

  /**
   * Deletes a record; `guard` as in {@link update}. In the same transaction, the `referrers`
   * (the `ref` fields that point at this entity) are released: optional ones that name the record
   * become `null`, and a required one that does refuses the delete.
   *
   * @returns `false` when the record did not exist.
   * @throws {ReferencedError} when a required `ref` names the record; nothing is changed.
   */
  async remove(entity: EntityModel, id: string, options: WriteOptions & { referrers?: readonly Referrer[] } = {}): Promise<boolean> {
    return writeTransaction(this.database, async (trx) => {
      const current = await this.lockRow(trx, entity, id, "delete", options);
      if (!current) return false;
      await options.guard?.(trx, current);
      await releaseReferences(trx, options.referrers ?? [], id);
      await trx.deleteFrom(entity.table).where("id", "=", id).execute();
      return true;
    });
  }

  /**
   * How many users hold `role`. On PostgreSQL the callers of this are serialized by a
   * transaction-level advisory lock, so the answer holds until commit; locking the role's rows
   * instead would deadlock two transactions that each hold one of them (two administrators
   * removing each other). SQLite's write transactions are serialized already.
   */
  async countWithRole(trx: Kysely<AnyDB>, entity: EntityModel, role: string): Promise<number> {
    if (this.database.dialect === "postgres") {
      await sql`select pg_advisory_xact_lock(hashtext(${`domain_auth_roles:${entity.table}`}))`.execute(trx);
    }
    const row = await trx
      .selectFrom(entity.table)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where("role", "=", role)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** `true` once the first user has been created, by any path. Setup never reopens, so once seen it is not read again. */
  async isSetupComplete(): Promise<boolean> {
    if (this.setupKnownComplete) return true;
    const row = await this.db.selectFrom(TABLES.setup).select("id").where("id", "=", 1).executeTakeFirst();
    this.setupKnownComplete = row !== undefined;
    return this.setupKnownComplete;
  }

  /**
   * Reads a record in a write transaction, locking its row on PostgreSQL. An update takes
   * `for no key update`, which leaves writes that refer to the record (`for key share`) free to
   * proceed, so two records that come to refer to each other cannot deadlock; a delete takes
   * `for update`, which waits for them.
   */
  private async lockRow(
    trx: Kysely<AnyDB>,
    entity: EntityModel,
    id: string,
    lock: RowLock,
    scope: RecordScope = {},
  ): Promise<StoredRecord | undefined> {
    if (!isPossibleId(id)) return undefined;
    let query = withinScope(entity, trx.selectFrom(entity.table).selectAll().where("id", "=", id), scope);
    if (this.database.dialect === "postgres") query = lock === "delete" ? query.forUpdate() : query.forNoKeyUpdate();
    const row = await query.executeTakeFirst();
    return row ? fromRow(entity, row) : undefined;
  }
}
