import { createSqliteDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database.js";
import { writeTransaction } from "./transaction.js";

/** Frames in the write-ahead log since its last reset: each commit appends the pages it changed. */
function walFrames(database: Database & { dialect: "sqlite" }): number {
  const [result] = database.client.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
  return result?.log ?? 0;
}

describe("commit group (SQLite)", () => {
  let file: TestDatabase;
  let database: Database & { dialect: "sqlite" };
  const bump = "update counters set value = value + 1, owner = ? where id = ? and owner = ?";

  beforeAll(async () => {
    file = createSqliteDatabase();
    database = (await openDatabase(file.url)) as Database & { dialect: "sqlite" };
    database.client.exec("create table counters (id integer primary key, value integer not null, owner text not null)");
    const insert = database.client.prepare("insert into counters (id, value, owner) values (?, 0, 'a')");
    for (let id = 1; id <= 20; id++) insert.run(id);
    // Start the log afresh, so the frames counted below are this test's.
    database.client.pragma("wal_checkpoint(TRUNCATE)");
  });
  afterAll(async () => {
    await database?.close();
    await file?.drop();
  });

  it("commits writes that arrive together once, each deciding as it would alone", async () => {
    const before = walFrames(database);
    // Two conditional writes per row, as two simultaneous refreshes with one token: the first wins.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => index + 1).flatMap((id) => [
        database.writes.run(bump, ["b", id, "a"]),
        database.writes.run(bump, ["c", id, "a"]),
      ]),
    );
    expect(results).toEqual(Array.from({ length: 20 }, () => [1, 0]).flat());
    expect(database.client.prepare("select sum(value) as total from counters where owner = 'b'").get()).toEqual({ total: 20 });
    // One transaction: the table's page is logged once, where 20 commits would log it 20 times.
    expect(walFrames(database) - before).toBeLessThanOrEqual(2);
  });

  it("waits for a transaction open on the connection, and sees what it committed", async () => {
    let queued: Promise<number> | undefined;
    await writeTransaction(database, async (trx) => {
      await trx.updateTable("counters").set({ owner: "d" }).where("id", "=", 1).execute();
      queued = database.writes.run(bump, ["e", 1, "d"]);
      // The group's turn comes while this transaction is still open.
      await new Promise((resolve) => setImmediate(resolve));
    });
    expect(await queued).toBe(1);
    expect(database.client.prepare("select owner from counters where id = 1").get()).toEqual({ owner: "e" });
  });

  it("answers each write on its own when the group's transaction fails", async () => {
    const results = await Promise.allSettled([
      database.writes.run(bump, ["f", 2, "b"]),
      database.writes.run("update no_such_table set x = 1", []),
    ]);
    expect(results[0]).toEqual({ status: "fulfilled", value: 1 });
    expect(results[1]?.status).toBe("rejected");
  });
});
