import { type SignedIn, setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { CompiledQuery, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/admin.js";
import { encodeListCursor } from "../../src/records/list-cursor.js";
import { EXACT_TOTAL_LIMIT, RecordLists } from "../../src/store/record-lists.js";
import type { ApiClient } from "../support/client.js";
import { useInstance } from "../support/instance.js";
import { ids, walkPages } from "../support/pages.js";

/**
 * Lists at scale (docs/api.md#lists) on both databases: `after` a page's `nextCursor` walks a collection
 * in its order, stays put when records arrive between pages, refuses cursors it never gave, counts
 * `total` up to 10,000 (all of it with `total=exact`), and reads one range of an index however
 * deep the page, for everyone's records and for a caller's own.
 */

const YAML = `name: lists
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Member }
  Tag:
    fields:
      name: { type: string, required: true }
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
  Note:
    owner: author
    fields:
      text: string
      author: { type: ref, to: User }
    permissions: { create: ["@Authenticated"], read: ["@Owner"], update: ["@Owner"], delete: ["@Owner"] }
auth:
  type: jwt
  roles: [Admin, Member]
`;

/** Every page of `path`, following `nextCursor` from the first page. */
const walk = (api: ApiClient, path: string, token?: string) => walkPages<{ id: string }>(api, path, token);

/**
 * Adds `count` records to `table` straight into the database, `createdAt` one millisecond apart
 * from 2026-01-01 on (before anything the API creates), owned by `owner` when given.
 */
async function fill(database: Database, table: string, count: number, owner?: { column: string; id: string }): Promise<void> {
  const start = Date.UTC(2026, 0, 1);
  const ownerColumn = owner ? sql`, ${sql.ref(owner.column)}` : sql``;
  const ownerValue = owner ? sql`, ${owner.id}` : sql``;
  const last = sql.lit(count - 1);
  if (database.dialect === "sqlite") {
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${last})
      insert into ${sql.table(table)} (id, "createdAt", "updatedAt", ${sql.ref(owner ? "text" : "name")}${ownerColumn})
      select printf('bulk-%08d', i), strftime('%Y-%m-%dT%H:%M:%fZ', (${sql.lit(start)} + i) / 1000.0, 'unixepoch'),
        strftime('%Y-%m-%dT%H:%M:%fZ', (${sql.lit(start)} + i) / 1000.0, 'unixepoch'), 'bulk'${ownerValue}
      from n`.execute(database.db);
    await sql`analyze`.execute(database.db);
    return;
  }
  await sql`insert into ${sql.table(table)} ("id", "createdAt", "updatedAt", ${sql.ref(owner ? "text" : "name")}${ownerColumn})
    select 'bulk-' || lpad(i::text, 8, '0'),
      to_char(to_timestamp((${sql.lit(start)} + i) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      to_char(to_timestamp((${sql.lit(start)} + i) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'bulk'${ownerValue}
    from generate_series(0, ${last}) as i`.execute(database.db);
  await sql`analyze ${sql.table(table)}`.execute(database.db);
}

/** The plan the database makes for `query` with `parameters`, as text. */
async function planOf(database: Database, query: string, parameters: readonly unknown[]): Promise<string> {
  const explain = database.dialect === "sqlite" ? "explain query plan " : "explain ";
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${explain}${query}`, [...parameters]));
  return rows.map((row) => String(row.detail ?? row["QUERY PLAN"])).join("\n");
}

describe.each(BACKENDS)("keyset lists on $name", (backend) => {
  const instance = useInstance(backend.create, YAML);
  let admin: SignedIn;
  let member: SignedIn;
  const database = () => {
    const found = instance.auth.tools.mfa?.store.database;
    if (!found) throw new Error("the domain has auth");
    return found;
  };

  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
    member = await signUp(instance.api, { email: "member@example.com" });
    for (let index = 0; index < 23; index++) {
      const created = await instance.api.post("/api/tag", { name: `tag ${index}` }, { token: admin.token });
      expect(created.status).toBe(201);
    }
  });

  it("walks a collection after each page's nextCursor, in the order offset pages give, null after the last", async () => {
    const all = await instance.api.get("/api/tag?limit=100");
    expect(all.body).toMatchObject({ total: 23, nextCursor: null });
    const walked = await walk(instance.api, "/api/tag?limit=5");
    expect(ids(walked)).toEqual(ids(all.body.items));
    const offsetPage = await instance.api.get("/api/tag?limit=5&offset=10");
    const cursorPage = await instance.api.get(`/api/tag?limit=5&after=${encodeListCursor(all.body.items[9])}`);
    expect(ids(cursorPage.body.items)).toEqual(ids(offsetPage.body.items));
    // An offset page names where the next one starts, too.
    expect(offsetPage.body.nextCursor).toBe(encodeListCursor(all.body.items[14]));
  });

  it("stays put when records arrive between pages: none skipped, none twice", async () => {
    const before = ids((await instance.api.get("/api/tag?limit=100")).body.items);
    const first = await instance.api.get("/api/tag?limit=10");
    const late: string[] = [];
    for (let index = 0; index < 3; index++) {
      late.push((await instance.api.post("/api/tag", { name: `late ${index}` }, { token: admin.token })).body.item.id);
    }
    const seen = [...ids(first.body.items)];
    let cursor: string | null = first.body.nextCursor;
    while (cursor) {
      const page = await instance.api.get(`/api/tag?limit=10&after=${cursor}`);
      seen.push(...ids(page.body.items));
      cursor = page.body.nextCursor;
    }
    // The late records come after the earlier ones; among themselves they go by (createdAt, id), and
    // records made within one millisecond go by their random ids, not by the order they were made.
    expect(seen.slice(0, before.length)).toEqual(before);
    expect(seen.slice(before.length).sort()).toEqual([...late].sort());
  });

  it.each([
    ["an empty cursor", "after="],
    ["characters outside base64url", "after=a+b/c"],
    ["a cursor of something else", `after=${Buffer.from('{"id":1}').toString("base64url")}`],
    ["a cursor whose time is no instant", `after=${Buffer.from('["yesterday","x"]').toString("base64url")}`],
    ["a cursor with offset", `after=${encodeListCursor({ createdAt: "2026-01-01T00:00:00.000Z", id: "x" })}&offset=0`],
    ["total other than exact", "total=yes"],
  ])("answers 400 INVALID_QUERY for %s", async (_label, query) => {
    const answer = await instance.api.get(`/api/tag?${query}`);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toMatchObject({ code: "INVALID_QUERY", issues: [expect.objectContaining({ path: expect.any(Array) })] });
  });

  it("counts total up to 10,000, leaves it out above unless total=exact, and keeps a caller's own list to their records", async () => {
    await fill(database(), "note", EXACT_TOTAL_LIMIT + 5, { column: "author", id: member.id });
    const mine = await instance.api.get("/api/note?limit=3", { token: member.token });
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBeUndefined();
    expect(mine.body.nextCursor).toEqual(expect.any(String));
    const exact = await instance.api.get("/api/note?limit=3&total=exact", { token: member.token });
    expect(exact.body.total).toBe(EXACT_TOTAL_LIMIT + 5);
    // Another caller's own list holds none of them, and its total is exact.
    expect((await instance.api.get("/api/note", { token: admin.token })).body).toEqual({ items: [], total: 0, nextCursor: null });
    const deep = encodeListCursor({ createdAt: "2026-01-01T00:00:09.000Z", id: "bulk-00009000" });
    const page = await instance.api.get(`/api/note?limit=3&after=${deep}`, { token: member.token });
    expect(ids(page.body.items)).toEqual(["bulk-00009001", "bulk-00009002", "bulk-00009003"]);
  });

  it("reads one range of an index for a deep page, everyone's and a caller's own, never sorting the table", async () => {
    await fill(database(), "tag", 50_000);
    const entity = (name: string) => {
      const found = instance.auth.model.entities.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`no ${name}`);
      return found;
    };
    const lists = new RecordLists(database());
    const plans = [
      await planOf(database(), lists.sqlOf(entity("Tag"), false, true).page, ["2026-01-01T00:00:40.000Z", "bulk-00040000", 21]),
      await planOf(database(), lists.sqlOf(entity("Note"), true, true).page, [member.id, "2026-01-01T00:00:09.000Z", "bulk-00009000", 21]),
    ];
    for (const plan of plans) {
      expect(plan, plan).toMatch(/__order\b|__owner_order\b/);
      expect(plan, plan).not.toMatch(/TEMP B-TREE|Sort\b|Seq Scan/i);
    }
  });
});
