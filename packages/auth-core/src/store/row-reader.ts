import type SQLite from "better-sqlite3";

/** How many distinct reads stay prepared; they are shaped by the model, so there are few. */
const CAPACITY = 128;

/** Runs reads on a SQLite connection, each statement prepared once. */
export interface RowReader {
  /** The rows of a read, as objects by column name (a later column of the same name wins). */
  all(sql: string, parameters: readonly unknown[]): Record<string, unknown>[];
}

/**
 * Creates the reader of a SQLite connection. Its statements return rows as arrays, made into
 * objects here with column names made once per statement: better-sqlite3 makes every column name
 * of every row into a JavaScript string anew, which costs more than the rest of a short read.
 */
export function createRowReader(client: SQLite.Database): RowReader {
  const reads = new Map<string, { readonly statement: SQLite.Statement; readonly names: readonly string[] }>();
  return {
    all(sql, parameters) {
      let read = reads.get(sql);
      if (!read) {
        if (reads.size >= CAPACITY) reads.delete(reads.keys().next().value as string);
        const statement = client.prepare(sql).raw(true);
        read = { statement, names: statement.columns().map((column) => column.name) };
        reads.set(sql, read);
      }
      const { statement } = read;
      const rows = statement.all(...parameters) as unknown[][];
      // SQLite prepares a statement again when the schema changes (another instance's migration
      // adding a column under `select *`): its columns are then read again too.
      if (rows.length > 0 && (rows[0] as unknown[]).length !== read.names.length) {
        read = { statement, names: statement.columns().map((column) => column.name) };
        reads.set(sql, read);
      }
      const { names } = read;
      const objects = new Array<Record<string, unknown>>(rows.length);
      for (let index = 0; index < rows.length; index++) {
        const values = rows[index] as unknown[];
        const object: Record<string, unknown> = {};
        for (let column = 0; column < names.length; column++) object[names[column] as string] = values[column];
        objects[index] = object;
      }
      return objects;
    },
  };
}
