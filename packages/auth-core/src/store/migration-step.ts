import type { CreateTableBuilder, Kysely } from "kysely";
import type { AnyDB } from "./any-db.js";

/** One step of a migration: recorded by its name once it ran (CREATE … IF NOT EXISTS, so running it again changes nothing). */
export interface Step {
  readonly name: string;
  run(db: Kysely<AnyDB>): Promise<unknown>;
}

/** A table's columns and constraints, added to its builder. */
export type TableColumns = (table: CreateTableBuilder<string, never>) => CreateTableBuilder<string, never>;

/** The step that creates a table if it is missing, named `create table <table>` as the migrations record it. */
export function createTableStep(table: string, columns: TableColumns): Step {
  return { name: `create table ${table}`, run: (trx) => columns(trx.schema.createTable(table).ifNotExists()).execute() };
}
