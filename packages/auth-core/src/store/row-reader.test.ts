import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createRowReader } from "./row-reader.js";

describe("row reader", () => {
  const client = new SQLite(":memory:");
  const reader = createRowReader(client);
  afterAll(() => client.close());

  it("reads rows as objects by column name, the same as better-sqlite3's own rows", () => {
    client.exec("create table t (id integer primary key, name text, flag integer)");
    client.exec("insert into t (name, flag) values ('a', 1), ('b', null)");
    const sql = "select * from t where id >= ? order by id";
    expect(reader.all(sql, [1])).toEqual(client.prepare(sql).all(1));
    expect(reader.all(sql, [3])).toEqual([]);
  });

  it("reads the columns again when the schema changes under select *", () => {
    const sql = "select * from t order by id";
    expect(Object.keys(reader.all(sql, [])[0] ?? {})).toEqual(["id", "name", "flag"]);
    client.exec("alter table t add column added text default 'x'");
    expect(reader.all(sql, [])[0]).toEqual({ id: 1, name: "a", flag: 1, added: "x" });
  });
});
