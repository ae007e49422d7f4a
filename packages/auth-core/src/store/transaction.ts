import { type Kysely, sql } from "kysely";
import type { AnyDB, Database } from "./database.js";

/** What runs once a transaction committed, by the query builder of that transaction. */
const COMMIT_HOOKS = new WeakMap<Kysely<AnyDB>, (() => void)[]>();

/**
 * Runs `hook` once the writes made through `db` are committed: at the commit of the
 * {@link writeTransaction} `db` belongs to (never, when it rolls back), or at once when `db` is
 * outside any (its statements commit as they run). A hook must not throw.
 */
export function afterCommit(db: Kysely<AnyDB>, hook: () => void): void {
  const hooks = COMMIT_HOOKS.get(db);
  if (hooks) hooks.push(hook);
  else hook();
}

/** Runs the hooks of a committed transaction, each on its own so one cannot keep the others from running. */
function runHooks(hooks: readonly (() => void)[]): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch {}
  }
}

/**
 * Runs `work` in a write transaction. On SQLite it begins IMMEDIATE, so two processes on one
 * file queue on the write lock (up to the busy timeout) instead of failing mid-transaction. Hooks
 * registered with {@link afterCommit} on its query builder run after the commit.
 */
export async function writeTransaction<T>(database: Database, work: (trx: Kysely<AnyDB>) => Promise<T>): Promise<T> {
  const hooks: (() => void)[] = [];
  let open: Kysely<AnyDB> | undefined;
  const hooked = (trx: Kysely<AnyDB>) => {
    open = trx;
    COMMIT_HOOKS.set(trx, hooks);
    return work(trx);
  };
  try {
    const result = await (database.dialect === "postgres"
      ? database.db.transaction().execute(hooked)
      : sqliteTransaction(database, hooked));
    runHooks(hooks);
    return result;
  } finally {
    if (open) COMMIT_HOOKS.delete(open);
  }
}

function sqliteTransaction<T>(database: Database, work: (trx: Kysely<AnyDB>) => Promise<T>): Promise<T> {
  return database.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
  });
}
