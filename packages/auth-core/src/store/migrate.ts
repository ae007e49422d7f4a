import { type Kysely, sql } from "kysely";
import type { DomainModel, EntityModel } from "../config/index.js";
import { ORGANIZATION_ID_FIELD } from "../config/vocabulary.js";
import { API_KEY_TABLES, apiKeySteps } from "./api-key-table.js";
import { entityColumns, refIndexName, timeColumn, uniqueIndexName } from "./columns.js";
import type { AnyDB, Database } from "./database.js";
import { EVENT_TABLES, eventSteps } from "./event-table.js";
import { createTableStep, type Step } from "./migration-step.js";
import { ORGANIZATION_TABLES, organizationSteps } from "./organization-tables.js";
import { providerSteps } from "./provider-tables.js";
import { SECOND_FACTOR_TABLES, secondFactorSteps } from "./second-factor-tables.js";
import { writeTransaction } from "./transaction.js";

/** Internal tables; entity tables never start with `domain_auth_`. */
export const TABLES = {
  migrations: "domain_auth_migrations",
  setup: "domain_auth_setup",
  throttle: "domain_auth_throttle",
  sessions: "domain_auth_sessions",
  spentRefreshTokens: "domain_auth_spent_refresh_tokens",
  tokens: "domain_auth_tokens",
  ...SECOND_FACTOR_TABLES,
  ...EVENT_TABLES,
  ...API_KEY_TABLES,
  ...ORGANIZATION_TABLES,
} as const;

/**
 * Values of the auth entity's internal columns for the users that exist when a column is added.
 * Accounts made before e-mail verification existed count as unverified.
 */
const MIGRATION_FALLBACKS: Partial<Record<string, string | number>> = {
  tokenVersion: 1,
  passwordHash: "",
  emailVerified: 0,
  everVerified: 0,
};

async function internalTables(db: Kysely<AnyDB>, dialect: Database["dialect"]): Promise<void> {
  await db.schema
    .createTable(TABLES.migrations)
    .ifNotExists()
    .addColumn("name", "text", (column) => column.primaryKey())
    .addColumn("appliedAt", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createTable(TABLES.setup)
    .ifNotExists()
    .addColumn("id", "integer", (column) => column.primaryKey())
    .addColumn("completedAt", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createTable(TABLES.throttle)
    .ifNotExists()
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("points", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("expire", timeColumn(dialect))
    .execute();
}

/**
 * An index on each `ref` column that no unique or owner index covers already: deleting a record
 * looks up the records that refer to it.
 */
function refIndexSteps(entity: EntityModel): Step[] {
  const refs = entity.fields.filter(
    (field) => field.type === "ref" && field.to !== undefined && !field.unique && field.name !== entity.ownerField,
  );
  return refs.map((field) => {
    const index = refIndexName(entity.table, field.name);
    return {
      name: `create index ${index}`,
      run: (trx) => trx.schema.createIndex(index).ifNotExists().on(entity.table).column(field.name).execute(),
    };
  });
}

/** The sessions table (docs/api.md#sessions) and its indexes: by refresh token (current and previous), by user, by end. */
function sessionSteps(dialect: Database["dialect"]): Step[] {
  const time = timeColumn(dialect);
  const table = TABLES.sessions;
  const index = (column: string): Step => ({
    name: `create index ${table}__${column}`,
    run: (trx) => trx.schema.createIndex(`${table}__${column}`).ifNotExists().on(table).column(column).execute(),
  });
  return [
    createTableStep(table, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("refreshedAt", time, (column) => column.notNull())
        .addColumn("expiresAt", time, (column) => column.notNull())
        .addColumn("userAgent", "text")
        .addColumn("address", "text")
        .addColumn("revokedAt", time)
        .addColumn("refreshHash", "text", (column) => column.notNull())
        .addColumn("previousHash", "text")
        .addColumn("rotatedAt", time),
    ),
    index("refreshHash"),
    index("previousHash"),
    index("userId"),
    index("expiresAt"),
  ];
}

/** The index the sweep of expired throttle counters reads (the table itself comes before any step). */
function throttleSteps(): Step[] {
  const index = `${TABLES.throttle}__expire`;
  return [
    {
      name: `create index ${index}`,
      run: (trx) => trx.schema.createIndex(index).ifNotExists().on(TABLES.throttle).column("expire").execute(),
    },
  ];
}

/** The trigger that records, in the same statement, each refresh token a rotation spends. */
const SPEND_TRIGGER = `${TABLES.sessions}__spend`;
const SPEND_FUNCTION = "domain_auth_spend_refresh_token";

/**
 * The trigger on the sessions table: whatever statement replaces a session's refresh token (a
 * rotation, on either database, alone or in a transaction) records the token it replaced, so a
 * spent token can never be missing from the spent table while its successor works.
 */
async function createSpendTrigger(trx: Kysely<AnyDB>, dialect: Database["dialect"]): Promise<void> {
  const sessions = sql.table(TABLES.sessions);
  const spent = sql.table(TABLES.spentRefreshTokens);
  const record = sql`insert into ${spent} ("hash", "sessionId", "spentAt") values (old."refreshHash", old."id", new."refreshedAt")`;
  if (dialect === "sqlite") {
    await sql`create trigger if not exists ${sql.id(SPEND_TRIGGER)} after update of "refreshHash" on ${sessions}
      for each row when old."refreshHash" <> new."refreshHash" begin ${record}; end`.execute(trx);
    return;
  }
  const present = await sql<{ found: number }>`select 1 as found from pg_trigger
    where tgname = ${SPEND_TRIGGER} and tgrelid = to_regclass(${TABLES.sessions})`.execute(trx);
  if (present.rows.length > 0) return;
  await sql`create or replace function ${sql.id(SPEND_FUNCTION)}() returns trigger language plpgsql as $$
    begin ${record}; return null; end $$`.execute(trx);
  await sql`create trigger ${sql.id(SPEND_TRIGGER)} after update of "refreshHash" on ${sessions}
    for each row when (old."refreshHash" is distinct from new."refreshHash") execute procedure ${sql.id(SPEND_FUNCTION)}()`.execute(trx);
}

/**
 * Every refresh token a session has spent, by SHA-256 hash, until the session is purged (docs/api.md#sessions: any spent token presented again revokes its session). A database from before this table
 * gets the spent token each session recorded itself (`previousHash`).
 */
function spentRefreshTokenSteps(dialect: Database["dialect"], tableExists: boolean): Step[] {
  const time = timeColumn(dialect);
  const table = TABLES.spentRefreshTokens;
  const steps: Step[] = [
    createTableStep(table, (create) => {
      const columns = create
        .addColumn("hash", "text", (column) => column.primaryKey())
        .addColumn("sessionId", "text", (column) => column.notNull().references(`${TABLES.sessions}.id`).onDelete("cascade"))
        .addColumn("spentAt", time, (column) => column.notNull());
      // Rows are found only by their key: SQLite then keeps one tree instead of a table and its key's index.
      return dialect === "sqlite" ? columns.modifyEnd(sql`without rowid`) : columns;
    }),
    {
      name: `create index ${table}__sessionId`,
      run: (trx) => trx.schema.createIndex(`${table}__sessionId`).ifNotExists().on(table).column("sessionId").execute(),
    },
  ];
  // The trigger first: on PostgreSQL it holds off rotations until this commits, so the copy below misses none.
  steps.push({ name: `create trigger ${SPEND_TRIGGER}`, run: (trx) => createSpendTrigger(trx, dialect) });
  if (!tableExists) {
    steps.push({
      name: `copy into ${table} the spent refresh tokens of ${TABLES.sessions}`,
      run: (trx) =>
        trx
          .insertInto(table)
          .columns(["hash", "sessionId", "spentAt"])
          .expression((eb) =>
            eb
              .selectFrom(TABLES.sessions)
              .select(["previousHash", "id", "rotatedAt"])
              .where("previousHash", "is not", null)
              .where("rotatedAt", "is not", null),
          )
          .execute(),
    });
  }
  return steps;
}

/** The table of reset, verification and invitation tokens (docs/mail.md), stored as SHA-256 hashes. */
function accountTokenSteps(dialect: Database["dialect"]): Step[] {
  const time = timeColumn(dialect);
  const table = TABLES.tokens;
  return [
    createTableStep(table, (table) =>
      table
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("userId", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("email", "text", (column) => column.notNull())
        .addColumn("tokenHash", "text", (column) => column.notNull())
        .addColumn("createdAt", time, (column) => column.notNull())
        .addColumn("expiresAt", time, (column) => column.notNull())
        .addColumn("usedAt", time),
    ),
    {
      name: `create index ${table}__tokenHash`,
      run: (trx) => trx.schema.createIndex(`${table}__tokenHash`).ifNotExists().unique().on(table).column("tokenHash").execute(),
    },
    {
      name: `create index ${table}__userId`,
      run: (trx) => trx.schema.createIndex(`${table}__userId`).ifNotExists().on(table).columns(["userId", "kind"]).execute(),
    },
  ];
}

/** The steps of an entity's table: create it, or add the columns it lacks. */
function tableSteps(entity: EntityModel, dialect: Database["dialect"], present: Set<string> | undefined): Step[] {
  const columns = entityColumns(entity, dialect);
  if (present) {
    return columns
      .filter((candidate) => !present.has(candidate.name))
      .map((column) => {
        const fallback = MIGRATION_FALLBACKS[column.name];
        return {
          name: `add column ${entity.table}.${column.name}`,
          run: (trx) =>
            trx.schema
              .alterTable(entity.table)
              .addColumn(column.name, column.type, (spec) => (fallback === undefined ? spec : spec.notNull().defaultTo(fallback)))
              .execute(),
        };
      });
  }
  return [
    {
      name: `create table ${entity.table}`,
      run: (trx) => {
        let builder = trx.schema
          .createTable(entity.table)
          .addColumn("id", "text", (column) => column.primaryKey())
          .addColumn("createdAt", "text", (column) => column.notNull())
          .addColumn("updatedAt", "text", (column) => column.notNull());
        for (const column of columns) {
          builder = builder.addColumn(column.name, column.type, (spec) => {
            const required = column.notNull ? spec.notNull() : spec;
            // A tenant record's organization exists while it does: an organization with records cannot be deleted.
            return column.name === ORGANIZATION_ID_FIELD ? required.references(`${ORGANIZATION_TABLES.organizations}.id`) : required;
          });
        }
        return builder.execute();
      },
    },
    {
      name: `create index ${entity.table} order`,
      run: (trx) => trx.schema.createIndex(`${entity.table}__order`).ifNotExists().on(entity.table).columns(["createdAt", "id"]).execute(),
    },
  ];
}

/**
 * A tenant entity's lists read one organization's records in order (and, for `@Owner`, one owner's
 * among them): one range of an index each, however many organizations and records there are.
 */
function tenantIndexSteps(entity: EntityModel, owner: string | null): Step[] {
  const index = (name: string, columns: string[]): Step => ({
    name: `create index ${name}`,
    run: (trx) => trx.schema.createIndex(name).ifNotExists().on(entity.table).columns(columns).execute(),
  });
  const steps = [index(`${entity.table}__org_order`, [ORGANIZATION_ID_FIELD, "createdAt", "id"])];
  if (owner) steps.push(index(`${entity.table}__org_${owner}__owner_order`, [ORGANIZATION_ID_FIELD, owner, "createdAt", "id"]));
  return steps;
}

/** The steps of an entity's indexes: its unique fields (the auth email among them), its owner and its refs. */
function indexSteps(entity: EntityModel): Step[] {
  const steps: Step[] = entity.fields
    .filter((field) => field.unique || (entity.isAuthEntity && field.name === "email"))
    .map((field) => {
      const index = uniqueIndexName(entity.table, field.name);
      return {
        name: `create index ${index}`,
        run: (trx) => trx.schema.createIndex(index).ifNotExists().unique().on(entity.table).column(field.name).execute(),
      };
    });
  const owner = entity.ownerField;
  if (entity.tenant) steps.push(...tenantIndexSteps(entity, owner));
  if (owner) {
    const index = `${entity.table}__${owner}__owner`;
    steps.push({
      name: `create index ${index}`,
      run: (trx) => trx.schema.createIndex(index).ifNotExists().on(entity.table).column(owner).execute(),
    });
    // A caller's own records, a page at a time in the collection's order (docs/api.md#lists): one range.
    const ordered = `${entity.table}__${owner}__owner_order`;
    steps.push({
      name: `create index ${ordered}`,
      run: (trx) => trx.schema.createIndex(ordered).ifNotExists().on(entity.table).columns([owner, "createdAt", "id"]).execute(),
    });
  }
  return [...steps, ...refIndexSteps(entity)];
}

async function plannedSteps(db: Kysely<AnyDB>, model: DomainModel, dialect: Database["dialect"]): Promise<Step[]> {
  const existing = new Map(
    (await db.introspection.getTables()).map((table) => [table.name, new Set(table.columns.map((column) => column.name))]),
  );
  const steps: Step[] = model.auth
    ? [
        ...sessionSteps(dialect),
        ...accountTokenSteps(dialect),
        ...spentRefreshTokenSteps(dialect, existing.has(TABLES.spentRefreshTokens)),
        ...secondFactorSteps(dialect, existing.get(SECOND_FACTOR_TABLES.mfaTokens)),
        ...eventSteps(dialect),
        ...apiKeySteps(dialect),
        ...providerSteps(dialect),
        ...(model.auth.organizations ? organizationSteps(dialect) : []),
        ...throttleSteps(),
      ]
    : [];
  for (const entity of model.entities) steps.push(...tableSteps(entity, dialect, existing.get(entity.table)), ...indexSteps(entity));
  return steps;
}

/**
 * Brings the schema in line with the model: creates missing tables, columns and indexes, and
 * records each step it ran. Never drops or rewrites data. Safe to run from several instances at
 * once (PostgreSQL advisory lock; SQLite write lock).
 *
 * @returns the names of the steps that ran.
 */
export async function migrate(database: Database, model: DomainModel): Promise<string[]> {
  return writeTransaction(database, async (trx) => {
    if (database.dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext('domain_auth_migrate'))`.execute(trx);
    await internalTables(trx, database.dialect);
    const steps = await plannedSteps(trx, model, database.dialect);
    const done = new Set((await trx.selectFrom(TABLES.migrations).select("name").execute()).map((row) => row.name as string));
    const ran: string[] = [];
    for (const step of steps) {
      await step.run(trx);
      if (!done.has(step.name)) {
        await trx.insertInto(TABLES.migrations).values({ name: step.name, appliedAt: new Date().toISOString() }).execute();
        ran.push(step.name);
      }
    }
    return ran;
  });
}
