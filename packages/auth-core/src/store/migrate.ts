import { type Kysely, sql } from "kysely";
import type { DomainModel, EntityModel } from "../config/index.js";
import { entityColumns, refIndexName, uniqueIndexName } from "./columns.js";
import type { AnyDB, Database } from "./database.js";
import { writeTransaction } from "./transaction.js";

/** Internal tables; entity tables never start with `domain_auth_`. */
export const TABLES = {
  migrations: "domain_auth_migrations",
  setup: "domain_auth_setup",
  throttle: "domain_auth_throttle",
  sessions: "domain_auth_sessions",
  tokens: "domain_auth_tokens",
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

interface Step {
  readonly name: string;
  run(db: Kysely<AnyDB>): Promise<unknown>;
}

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
    .addColumn("expire", dialect === "postgres" ? "bigint" : "integer")
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

/** The sessions table (CONTRACT 10) and its indexes: by refresh token (current and previous), by user, by end. */
function sessionSteps(dialect: Database["dialect"]): Step[] {
  const time = dialect === "postgres" ? "bigint" : "integer";
  const table = TABLES.sessions;
  const index = (column: string): Step => ({
    name: `create index ${table}__${column}`,
    run: (trx) => trx.schema.createIndex(`${table}__${column}`).ifNotExists().on(table).column(column).execute(),
  });
  return [
    {
      name: `create table ${table}`,
      run: (trx) =>
        trx.schema
          .createTable(table)
          .ifNotExists()
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
          .addColumn("rotatedAt", time)
          .execute(),
    },
    index("refreshHash"),
    index("previousHash"),
    index("userId"),
    index("expiresAt"),
  ];
}

/** The table of reset, verification and invitation tokens (CONTRACT 11), stored as SHA-256 hashes. */
function accountTokenSteps(dialect: Database["dialect"]): Step[] {
  const time = dialect === "postgres" ? "bigint" : "integer";
  const table = TABLES.tokens;
  return [
    {
      name: `create table ${table}`,
      run: (trx) =>
        trx.schema
          .createTable(table)
          .ifNotExists()
          .addColumn("id", "text", (column) => column.primaryKey())
          .addColumn("userId", "text", (column) => column.notNull())
          .addColumn("kind", "text", (column) => column.notNull())
          .addColumn("email", "text", (column) => column.notNull())
          .addColumn("tokenHash", "text", (column) => column.notNull())
          .addColumn("createdAt", time, (column) => column.notNull())
          .addColumn("expiresAt", time, (column) => column.notNull())
          .addColumn("usedAt", time)
          .execute(),
    },
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

async function plannedSteps(db: Kysely<AnyDB>, model: DomainModel, dialect: Database["dialect"]): Promise<Step[]> {
  const existing = new Map(
    (await db.introspection.getTables()).map((table) => [table.name, new Set(table.columns.map((column) => column.name))]),
  );
  const steps: Step[] = model.auth ? [...sessionSteps(dialect), ...accountTokenSteps(dialect)] : [];
  for (const entity of model.entities) {
    const columns = entityColumns(entity, dialect);
    const present = existing.get(entity.table);
    if (!present) {
      steps.push({
        name: `create table ${entity.table}`,
        run: (trx) => {
          let builder = trx.schema
            .createTable(entity.table)
            .addColumn("id", "text", (column) => column.primaryKey())
            .addColumn("createdAt", "text", (column) => column.notNull())
            .addColumn("updatedAt", "text", (column) => column.notNull());
          for (const column of columns) {
            builder = builder.addColumn(column.name, column.type, (spec) => (column.notNull ? spec.notNull() : spec));
          }
          return builder.execute();
        },
      });
      steps.push({
        name: `create index ${entity.table} order`,
        run: (trx) =>
          trx.schema.createIndex(`${entity.table}__order`).ifNotExists().on(entity.table).columns(["createdAt", "id"]).execute(),
      });
    } else {
      for (const column of columns.filter((candidate) => !present.has(candidate.name))) {
        const fallback = MIGRATION_FALLBACKS[column.name];
        steps.push({
          name: `add column ${entity.table}.${column.name}`,
          run: (trx) =>
            trx.schema
              .alterTable(entity.table)
              .addColumn(column.name, column.type, (spec) => (fallback === undefined ? spec : spec.notNull().defaultTo(fallback)))
              .execute(),
        });
      }
    }
    const unique = entity.fields.filter((field) => field.unique || (entity.isAuthEntity && field.name === "email"));
    for (const field of unique) {
      const index = uniqueIndexName(entity.table, field.name);
      steps.push({
        name: `create index ${index}`,
        run: (trx) => trx.schema.createIndex(index).ifNotExists().unique().on(entity.table).column(field.name).execute(),
      });
    }
    if (entity.ownerField) {
      const index = `${entity.table}__${entity.ownerField}__owner`;
      steps.push({
        name: `create index ${index}`,
        run: (trx) =>
          trx.schema
            .createIndex(index)
            .ifNotExists()
            .on(entity.table)
            .column(entity.ownerField as string)
            .execute(),
      });
    }
    steps.push(...refIndexSteps(entity));
  }
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
