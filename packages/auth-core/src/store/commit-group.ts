import type SQLite from "better-sqlite3";
import { CompiledQuery, type Kysely } from "kysely";
import type { AnyDB } from "./any-db.js";
import type { StatementCache } from "./statement-cache.js";

/** One statement waiting for the group's commit. */
interface Pending {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  resolve(changes: number): void;
  reject(error: unknown): void;
}

/** Runs single-statement writes, several to a commit. */
export interface CommitGroup {
  /** Runs one write statement; resolves to the rows it changed, once its transaction is committed. */
  run(sql: string, parameters: readonly unknown[]): Promise<number>;
}

/**
 * Groups the single-statement writes of one SQLite connection that arrive together into one
 * transaction, so one durable commit (one fsync under `synchronous = FULL`) serves them all: a
 * write queued while the event loop is busy runs with the others queued meanwhile, on the loop's
 * next turn, and resolves only after their commit. Each statement still runs alone, in order, so a
 * conditional `UPDATE` decides exactly as it would by itself. While a transaction of kysely's is
 * open on the connection, or when the group's own fails, each write goes through kysely on its own.
 */
export function createCommitGroup(client: SQLite.Database, statements: StatementCache, db: Kysely<AnyDB>): CommitGroup {
  let queue: Pending[] = [];
  const alone = (write: Pending) =>
    db
      .executeQuery(CompiledQuery.raw(write.sql, [...write.parameters]))
      .then((result) => write.resolve(Number(result.numAffectedRows ?? 0)), write.reject);

  const flush = () => {
    const batch = queue;
    queue = [];
    if (client.inTransaction) {
      for (const write of batch) void alone(write);
      return;
    }
    let changes: number[];
    try {
      statements.prepare("begin immediate").run();
      try {
        changes = batch.map((write) => statements.prepare(write.sql).run(...write.parameters).changes);
        statements.prepare("commit").run();
      } catch (error) {
        if (client.inTransaction) statements.prepare("rollback").run();
        throw error;
      }
    } catch {
      // One failing statement (or a lock not had) must not fail the others: each on its own.
      for (const write of batch) void alone(write);
      return;
    }
    for (const [index, write] of batch.entries()) write.resolve(changes[index] ?? 0);
  };

  return {
    run(sql, parameters) {
      return new Promise<number>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        queue.push({ sql, parameters, resolve, reject });
      });
    },
  };
}
