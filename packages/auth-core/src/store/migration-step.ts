import type { Kysely } from "kysely";
import type { AnyDB } from "./any-db.js";

/** One step of a migration: recorded by its name once it ran (CREATE … IF NOT EXISTS, so running it again changes nothing). */
export interface Step {
  readonly name: string;
  run(db: Kysely<AnyDB>): Promise<unknown>;
}
