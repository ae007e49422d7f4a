import type SQLite from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/** How many distinct statements stay prepared; queries are shaped by the model, so there are few. */
const CAPACITY = 256;

/** A better-sqlite3 database for kysely whose statements are prepared once per SQL text. */
export interface StatementCache extends SqliteDatabase {
  prepare(sql: string): SQLite.Statement;
}

/**
 * Gives kysely a better-sqlite3 database whose statements are prepared once per SQL text and
 * reused, instead of prepared again on every query.
 */
export function withStatementCache(database: SQLite.Database): StatementCache {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= CAPACITY) statements.delete(statements.keys().next().value as string);
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close: () => database.close(),
  };
}
