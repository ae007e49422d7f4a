import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.js";

describe("statement cache", () => {
  const raw = new SQLite(":memory:");
  const database = withStatementCache(raw);
  afterAll(() => database.close());

  it("prepares each SQL text once and reuses the statement", () => {
    raw.exec("create table t (x integer)");
    const insert = database.prepare("insert into t (x) values (?)");
    expect(database.prepare("insert into t (x) values (?)")).toBe(insert);
    insert.run([1]);
    database.prepare("insert into t (x) values (?)").run([2]);
    expect(database.prepare("select sum(x) as total from t").all([])).toEqual([{ total: 3 }]);
  });

  it("keeps a bounded number of statements", () => {
    const first = database.prepare("select 0 as n");
    for (let index = 1; index <= 300; index++) database.prepare(`select ${index} as n`);
    expect(database.prepare("select 0 as n")).not.toBe(first);
  });
});
