import { CompiledQuery } from "kysely";
import type { Database } from "./database.js";

/**
 * Runs a read whose SQL was built once (by kysely, which escapes every identifier) with its
 * parameters. On SQLite outside a transaction, its prepared statement (`row-reader.ts`) runs at
 * once instead of queueing for kysely's one connection: a single statement sees only committed rows there, as it
 * would through the queue. While a transaction is open on the connection the read takes its turn
 * through kysely, so it never sees that transaction's uncommitted writes.
 */
export async function selectRows<Row>(database: Database, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  if (database.dialect === "sqlite" && !database.client.inTransaction) {
    return database.rows.all(sql, parameters) as Row[];
  }
  const { rows } = await database.db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]));
  return rows as Row[];
}
