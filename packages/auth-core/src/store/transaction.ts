import { type Kysely, sql } from "kysely";
import type { AnyDB, Database } from "./database.js";

/**
 * Runs `work` in a write transaction. On SQLite it begins IMMEDIATE, so two processes on one
 * file queue on the write lock (up to the busy timeout) instead of failing mid-transaction.
 */
export async function writeTransaction<T>(database: Database, work: (trx: Kysely<AnyDB>) => Promise<T>): Promise<T> {
  if (database.dialect === "postgres") return database.db.transaction().execute(work);
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
