import { type SignedIn, setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/admin.js";
import { encodeListCursor, encodeSortedCursor } from "../../src/records/list-cursor.js";
import { EXACT_TOTAL_LIMIT } from "../../src/store/record-lists.js";
import type { ApiClient } from "../support/client.js";
import { useInstance } from "../support/instance.js";
import { ids, walkPages } from "../support/pages.js";

/**
 * Searched, sorted and filtered lists (docs/api.md#lists) on both databases: `q` finds text in the
 * `string` fields whatever its case, `%`, `_` and `\` as written; `sort` orders by any scalar field,
 * records without a value last, and walking every page `after` each `nextCursor` gives every record
 * once, in that order; `where.<field>` filters; all of them combine with each other and with the
 * owner's and the organization's restrictions; what cannot be used is 400 `INVALID_QUERY`.
 */

const YAML = `name: searches
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Member }
  Tag:
    fields:
      label: { type: string, required: true }
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
  Item:
    fields:
      name: { type: string, required: true }
      code: string
      rank: integer
      price: number
      active: boolean
      due: datetime
      status: { type: enum, values: [draft, live, gone] }
      notes: text
      tag: { type: ref, to: Tag }
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
  Counter:
    fields:
      hits: integer
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
  Note:
    owner: author
    fields:
      title: string
      pinned: boolean
      author: { type: ref, to: User }
    permissions: { create: ["@Authenticated"], read: ["@Owner"], update: ["@Owner"], delete: ["@Owner"] }
  Task:
    tenant: true
    fields:
      title: { type: string, required: true }
      done: boolean
auth:
  type: jwt
  roles: [Admin, Member]
  organizations:
    roles: [Owner, Crew]
`;

type Item = Record<string, unknown> & { id: string };

/** Names that test what a search matches: LIKE's special characters, case, and a letter beyond ASCII. */
const SPECIAL_NAMES = ["Discount 100% off", "snake_case", "back\\slash", "ALPHA upper", "Émile", "1000 offers", "snakeXcase"];
const WORDS = ["delta", "alpha", "echo", "bravo", "charlie"];

/** The fields of the `index`th item: several equal values, and `null` in every optional field now and then. */
function itemFields(index: number, tags: readonly string[]): Record<string, unknown> {
  return {
    name: SPECIAL_NAMES[index] ?? `${WORDS[index % WORDS.length]} ${index}`,
    code: index % 6 === 0 ? null : `k${index % 4}`,
    rank: index % 5 === 0 ? null : ((index * 7) % 9) - 4,
    price: index % 8 === 0 ? null : ((index * 13) % 10) / 4,
    active: index % 7 === 0 ? null : index % 3 === 0,
    due: index % 4 === 0 ? null : new Date(Date.UTC(2026, 0, 1 + (index % 10), 12)).toISOString(),
    status: index % 9 === 0 ? null : (["draft", "live", "gone"][index % 3] as string),
    notes: "a needle in the notes",
    tag: index % 2 === 1 ? tags[0] : index % 3 === 0 ? null : tags[1],
  };
}

/** `a` before `b` by value: `false` before `true`, numbers by size, text by code point (as SQLite, and PostgreSQL under a C collation). */
function compare(a: unknown, b: unknown): number {
  if (typeof a === "boolean" || typeof a === "number") return Number(a) - Number(b);
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `items` in the order `sort=<field>` (or `-<field>`) gives: records without a value last, then by id the same way. */
function sortedBy(items: readonly Item[], sort: string): Item[] {
  const descending = sort.startsWith("-");
  const field = descending ? sort.slice(1) : sort;
  return [...items].sort((a, b) => {
    const [an, bn] = [a[field] === null, b[field] === null];
    if (an !== bn) return an ? 1 : -1;
    const order = (an ? 0 : compare(a[field], b[field])) || compare(a.id, b.id);
    return descending ? -order : order;
  });
}

/** Every page of `path` after each `nextCursor`, no record on two pages. */
async function walk(api: ApiClient, path: string, token?: string): Promise<Item[]> {
  const items = await walkPages<Item>(api, path, token);
  expect(new Set(ids(items)).size, "no record twice").toBe(items.length);
  return items;
}

/** The answer to a request the server must refuse: 400 `INVALID_QUERY` with these issues. */
async function refused(api: ApiClient, path: string, token?: string): Promise<{ path: string[]; message: string }[]> {
  const answer = await api.get(path, token ? { token } : {});
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body).toMatchObject({ code: "INVALID_QUERY", message: "The query string is not valid" });
  return answer.body.issues;
}

/** The text any searched field (name, code) of an item holds, folded as a search folds ASCII letters. */
const holds = (item: Item, text: string) =>
  [item.name, item.code].some((value) => typeof value === "string" && value.toLowerCase().includes(text));

/**
 * Adds `count` tags straight into the database, labelled `bulk-<i>` and, every twelfth, `needle-<i>`,
 * `createdAt` one millisecond apart from 2025 on (before anything the API creates).
 */
async function fillTags(database: Database, count: number): Promise<void> {
  const start = sql.lit(Date.UTC(2025, 0, 1));
  const last = sql.lit(count - 1);
  if (database.dialect === "sqlite") {
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${last})
      insert into "tag" (id, "createdAt", "updatedAt", "label")
      select printf('bulk-%08d', i), strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + i) / 1000.0, 'unixepoch'),
        strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + i) / 1000.0, 'unixepoch'),
        case when i % 12 = 0 then printf('Needle-%05d', i) else printf('bulk-%05d', i) end
      from n`.execute(database.db);
    return;
  }
  await sql`insert into "tag" ("id", "createdAt", "updatedAt", "label")
    select 'bulk-' || lpad(i::text, 8, '0'),
      to_char(to_timestamp((${start} + i) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      to_char(to_timestamp((${start} + i) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      case when i % 12 = 0 then 'Needle-' || lpad(i::text, 5, '0') else 'bulk-' || lpad(i::text, 5, '0') end
    from generate_series(0, ${last}) as i`.execute(database.db);
}

describe.each(BACKENDS)("searched, sorted and filtered lists on $name", (backend) => {
  const instance = useInstance(backend.create, YAML);
  const api = () => instance.api;
  let admin: SignedIn;
  let member: SignedIn;
  let other: SignedIn;
  let items: Item[];
  let tags: string[];

  beforeAll(async () => {
    admin = await setUpAdmin(api());
    member = await signUp(api(), { email: "Member.One@example.com" });
    other = await signUp(api(), { email: "other@example.org" });
    tags = [];
    for (const label of ["red", "blue"]) tags.push((await api().post("/api/tag", { label }, { token: admin.token })).body.item.id);
    items = [];
    for (let index = 0; index < 60; index++) {
      const created = await api().post("/api/item", itemFields(index, tags), { token: admin.token });
      expect(created.status, created.text).toBe(201);
      items.push(created.body.item);
    }
  });

  describe("search", () => {
    it.each([
      ["a word, whatever its case", "ALPHA", "alpha"],
      ["a percent sign as written, not any text", "100%", "100%"],
      ["an underscore as written, not any character", "snake_case", "snake_case"],
      ["a backslash as written", "k\\s", "k\\s"],
      ["a letter beyond ASCII in its own case", "Émile", "émile"],
      ["text in a nullable string field", "K3", "k3"],
    ])("finds %s", async (_label, q, folded) => {
      const found = await walk(api(), `/api/item?limit=9&q=${encodeURIComponent(q)}`);
      const expected = items.filter((item) => holds(item, folded) || (q === "Émile" && item.name === "Émile"));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(found).sort()).toEqual(ids(expected).sort());
    });

    it("finds nothing in text fields, nothing for text no record holds, and SQL in the text is only text", async () => {
      for (const q of ["needle", "zebra", "'); drop table item; --", "%%", "__________________________________"]) {
        const answer = await api().get(`/api/item?q=${encodeURIComponent(q)}`);
        expect(answer.body, q).toEqual({ items: [], total: 0, nextCursor: null });
      }
      expect((await api().get("/api/item?limit=1")).body.total).toBe(60);
    });

    it("counts total of the searched list, not the whole collection", async () => {
      const answer = await api().get("/api/item?limit=2&q=alpha");
      expect(answer.body.total).toBe(items.filter((item) => holds(item, "alpha")).length);
      expect(answer.body.items).toHaveLength(2);
    });
  });

  describe("sort", () => {
    it.each([
      "code",
      "-code",
      "rank",
      "-rank",
      "price",
      "-price",
      "active",
      "-active",
      "due",
      "-due",
      "status",
      "-status",
      "tag",
      "-name",
      "-createdAt",
      "updatedAt",
    ])("sort=%s walks every record once, in order, records without a value last", async (sort) => {
      const walked = await walk(api(), `/api/item?limit=7&sort=${sort}`);
      expect(ids(walked)).toEqual(ids(sortedBy(items, sort)));
      const whole = await api().get(`/api/item?limit=100&sort=${sort}`);
      expect(ids(whole.body.items)).toEqual(ids(walked));
      expect(whole.body).toMatchObject({ total: 60, nextCursor: null });
    });

    it("sort=createdAt is the default order, with its cursors", async () => {
      const plain = await api().get("/api/item?limit=5");
      const sorted = await api().get("/api/item?limit=5&sort=createdAt");
      expect(sorted.body).toEqual(plain.body);
      const next = await api().get(`/api/item?limit=5&sort=createdAt&after=${plain.body.nextCursor}`);
      expect(next.status, next.text).toBe(200);
    });

    it("pages by offset under a sort too, each page naming where the next starts", async () => {
      const order = ids(sortedBy(items, "-rank"));
      const page = await api().get("/api/item?limit=10&offset=20&sort=-rank");
      expect(ids(page.body.items)).toEqual(order.slice(20, 30));
      const next = await api().get(`/api/item?limit=10&sort=-rank&after=${page.body.nextCursor}`);
      expect(ids(next.body.items)).toEqual(order.slice(30, 40));
    });

    it("holds the stored value in its cursor: a boolean as 0 or 1", async () => {
      const page = await api().get("/api/item?limit=1&sort=-active");
      const cursor = JSON.parse(Buffer.from(page.body.nextCursor, "base64url").toString("utf8"));
      expect(cursor).toEqual(["-active", 1, page.body.items[0].id]);
    });
  });

  describe("filters", () => {
    it.each([
      ["an enum value", "where.status=live", (item: Item) => item.status === "live"],
      ["true", "where.active=true", (item: Item) => item.active === true],
      ["false", "where.active=false", (item: Item) => item.active === false],
      ["no value", "where.active=", (item: Item) => item.active === null],
      ["no enum value", "where.status=", (item: Item) => item.status === null],
      ["two filters", "where.status=draft&where.active=true", (item: Item) => item.status === "draft" && item.active === true],
    ])("keeps the records of %s", async (_label, query, keep) => {
      const found = await walk(api(), `/api/item?limit=6&${query}`);
      const expected = sortedBy(items.filter(keep), "createdAt");
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(found)).toEqual(ids(expected));
    });

    it("filters by a reference, and combines filters, search and sort", async () => {
      const red = await walk(api(), `/api/item?limit=8&where.tag=${tags[0]}`);
      expect(ids(red)).toEqual(
        ids(
          sortedBy(
            items.filter((item) => item.tag === tags[0]),
            "createdAt",
          ),
        ),
      );
      expect((await api().get("/api/item?where.tag=no-such-tag")).body).toEqual({ items: [], total: 0, nextCursor: null });
      const path = `/api/item?limit=3&q=A&where.tag=${tags[1]}&where.status=gone&sort=-price`;
      const found = await walk(api(), path);
      const expected = items.filter((item) => holds(item, "a") && item.tag === tags[1] && item.status === "gone");
      expect(expected.length).toBeGreaterThan(3);
      expect(ids(found)).toEqual(ids(sortedBy(expected, "-price")));
      expect((await api().get(path)).body.total).toBe(expected.length);
    });
  });

  describe("bad queries", () => {
    it.each([
      ["an unknown sort key", "sort=colour", ["sort"], /cannot sort by "colour": sort by createdAt, updatedAt, name, code, rank, price/],
      ["a text field as sort key", "sort=-notes", ["sort"], /cannot sort by "notes"/],
      ["a sort of nothing", "sort=-", ["sort"], /cannot sort by ""/],
      [
        "an unknown filter",
        "where.colour=red",
        ["where.colour"],
        /^is not a filter of Item: its filters: where\.active, where\.status, where\.tag$/,
      ],
      ["a filter on a string field", "where.name=alpha", ["where.name"], /is not a filter of Item/],
      ["where. alone", "where.=x", ["where."], /is not a filter of Item/],
      ["a value no enum holds", "where.status=Live", ["where.status"], /^must be one of: draft, live, gone \(or empty for none\)$/],
      ["a boolean other than true or false", "where.active=1", ["where.active"], /^must be true or false \(or empty for none\)$/],
      ["a filter given twice", "where.status=live&where.status=draft", ["where.status"], /^must be given once$/],
      ["an empty search", "q=", ["q"], /^must be 1 to 100 characters long$/],
      ["a search of 101 characters", `q=${"x".repeat(101)}`, ["q"], /^must be 1 to 100 characters long$/],
      ["a search holding U+0000", "q=a%00b", ["q"], /./],
    ])("refuses %s", async (_label, query, path, message) => {
      const issues = await refused(api(), `/api/item?${query}`);
      expect(issues).toEqual([{ path, message: expect.stringMatching(message) }]);
    });

    it("refuses a search where there is no string field, and names every problem at once", async () => {
      expect(await refused(api(), "/api/counter?q=1")).toEqual([{ path: ["q"], message: "cannot be used: Counter has no string field" }]);
      const issues = await refused(api(), "/api/item?sort=nope&where.active=maybe&where.nope=1");
      expect(issues.map((issue) => issue.path)).toEqual([["sort"], ["where.active"], ["where.nope"]]);
    });

    it("ignores other unknown parameters, as before", async () => {
      const answer = await api().get("/api/item?limit=1&colour=red&wherever=1");
      expect(answer.status, answer.text).toBe(200);
    });

    it("refuses a cursor made under another order: another sort, the default one, or a sorted one without sort", async () => {
      const byCode = await api().get("/api/item?limit=5&sort=code");
      const plain = await api().get("/api/item?limit=5");
      const cases = [
        [`sort=-code&after=${byCode.body.nextCursor}`, "was made under sort=code, not sort=-code"],
        [`sort=rank&after=${byCode.body.nextCursor}`, "was made under sort=code, not sort=rank"],
        [`sort=code&after=${plain.body.nextCursor}`, "was made under the default order, not sort=code"],
        [`after=${byCode.body.nextCursor}`, "was made under sort=code, not the default order"],
      ];
      for (const [query, made] of cases) {
        expect(await refused(api(), `/api/item?${query}`), query).toEqual([
          { path: ["after"], message: `${made}: page with the order it was made under, or start again` },
        ]);
      }
    });

    it.each([
      ["a text value for a number key", "rank", encodeSortedCursor("rank", { value: "3", id: "x" })],
      ["a number for a text key", "code", encodeSortedCursor("code", { value: 3, id: "x" })],
      ["no value for a time", "-createdAt", encodeSortedCursor("-createdAt", { value: null, id: "x" })],
      ["an empty id", "code", encodeSortedCursor("code", { value: "k1", id: "" })],
      ["a default cursor that is no cursor", "code", encodeListCursor({ createdAt: "yesterday", id: "x" })],
    ])("refuses a sorted cursor with %s", async (_label, sort, cursor) => {
      expect(await refused(api(), `/api/item?sort=${sort}&after=${cursor}`)).toEqual([
        { path: ["after"], message: "is not a cursor this API gave (use a page's nextCursor)" },
      ]);
    });
  });

  it("keeps an @Owner list to the caller's records, searched, filtered and sorted", async () => {
    for (const [who, titles] of [
      [member, ["Alpha one", "alpha two", "beta", "ALPHA three"]],
      [admin, ["alpha admin", "beta admin"]],
    ] as const) {
      for (const [index, title] of titles.entries()) {
        const created = await api().post("/api/note", { title, pinned: index % 2 === 0 }, { token: who.token });
        expect(created.status, created.text).toBe(201);
      }
    }
    const mine = await walk(api(), "/api/note?limit=2&q=alpha&sort=-title", member.token);
    expect(mine.map((note) => note.title)).toEqual(["alpha two", "Alpha one", "ALPHA three"]);
    const unpinned = await api().get("/api/note?q=ALPHA&where.pinned=false&sort=title", { token: member.token });
    expect(unpinned.body.items.map((note: Item) => note.title)).toEqual(["ALPHA three", "alpha two"]);
    expect(unpinned.body.total).toBe(2);
    // Naming another's id as the owner finds none of theirs.
    expect((await api().get(`/api/note?where.author=${admin.id}`, { token: member.token })).body.items).toEqual([]);
    const theirs = await api().get("/api/note?q=alpha", { token: admin.token });
    expect(theirs.body.items.map((note: Item) => note.title)).toEqual(["alpha admin"]);
  });

  it("keeps a tenant list to its organization's records, searched, filtered and sorted", async () => {
    const organizations: string[] = [];
    for (const name of ["First", "Second"]) {
      const created = await api().post("/api/orgs", { name }, { token: admin.token });
      expect(created.status, created.text).toBe(201);
      organizations.push(created.body.organization.id);
    }
    for (const [index, organization] of organizations.entries()) {
      for (let task = 0; task < 7; task++) {
        const body = { title: `fix ${String.fromCharCode(97 + task)} in ${index}`, done: task % 2 === 0 };
        const created = await api().post(`/api/orgs/${organization}/task`, body, { token: admin.token });
        expect(created.status, created.text).toBe(201);
      }
    }
    const first = await walk(api(), `/api/orgs/${organizations[0]}/task?limit=2&q=FIX&where.done=true&sort=-title`, admin.token);
    expect(first.map((task) => task.title)).toEqual(["fix g in 0", "fix e in 0", "fix c in 0", "fix a in 0"]);
    const answer = await api().get(`/api/orgs/${organizations[1]}/task?q=in%200`, { token: admin.token });
    expect(answer.body).toEqual({ items: [], total: 0, nextCursor: null });
  });

  it("searches users by e-mail and filters them by role", async () => {
    const found = await api().get("/api/user?q=MEMBER.ONE@", { token: admin.token });
    expect(ids(found.body.items)).toEqual([member.id]);
    const admins = await api().get("/api/user?where.role=Admin", { token: admin.token });
    expect(ids(admins.body.items)).toEqual([admin.id]);
    const members = await walk(api(), "/api/user?limit=1&where.role=Member&sort=-email", admin.token);
    expect(members.map((user) => user.email)).toEqual(["other@example.org", "member.one@example.com"]);
    const roleless = await api().post(
      "/api/user",
      { email: "no-role@example.com", password: "a long enough password", role: null },
      { token: admin.token },
    );
    expect(roleless.status, roleless.text).toBe(201);
    expect(ids((await api().get("/api/user?where.role=", { token: admin.token })).body.items)).toEqual([roleless.body.item.id]);
    expect(await refused(api(), "/api/user?where.role=Owner", admin.token)).toEqual([
      { path: ["where.role"], message: "must be one of: Admin, Member (or empty for none)" },
    ]);
    expect(await refused(api(), "/api/user?sort=password", admin.token)).toEqual([
      { path: ["sort"], message: expect.stringContaining('cannot sort by "password"') },
    ]);
    expect(ids((await api().get("/api/user?q=example.org", { token: admin.token })).body.items)).toEqual([other.id]);
  });

  it("describes q, sort and each filter in the document", async () => {
    const document = (await api().get("/api/openapi.json")).body;
    const parameters = (path: string) =>
      Object.fromEntries((document.paths[path].get.parameters as { name: string; schema: object }[]).map((p) => [p.name, p.schema]));
    const item = parameters("/api/item");
    expect(item.q).toMatchObject({ type: "string", minLength: 1, maxLength: 100 });
    expect(item.sort).toMatchObject({ enum: expect.arrayContaining(["createdAt", "-createdAt", "rank", "-rank", "tag"]) });
    expect((item.sort as { enum: string[] }).enum).not.toContain("notes");
    expect(item["where.status"]).toEqual({ type: "string", enum: ["draft", "live", "gone", ""] });
    expect(item["where.active"]).toEqual({ type: "string", enum: ["true", "false", ""] });
    expect(Object.keys(item).filter((name) => name.startsWith("where."))).toEqual(["where.active", "where.status", "where.tag"]);
    expect(parameters("/api/counter").q).toBeUndefined();
    expect(parameters("/api/user")["where.role"]).toEqual({ type: "string", enum: ["Admin", "Member", ""] });
  });

  it("searches 1,000 of 12,000 records and pages them to the end; counts each filtered list apart from the whole", async () => {
    const database = instance.auth.tools.mfa?.store.database;
    if (!database) throw new Error("the domain has auth");
    await fillTags(database, 12_000);
    // The whole list is large: no total. The searched one is not, and its total is not taken for the whole.
    expect((await api().get("/api/tag?limit=1")).body.total).toBeUndefined();
    expect((await api().get("/api/tag?limit=1&q=NEEDLE")).body.total).toBe(1000);
    expect((await api().get("/api/tag?limit=1")).body.total).toBeUndefined();
    expect((await api().get("/api/tag?limit=1&q=bulk")).body.total).toBeUndefined();
    expect((await api().get("/api/tag?limit=1&q=bulk&total=exact")).body.total).toBe(11_000);
    expect(11_000).toBeGreaterThan(EXACT_TOTAL_LIMIT);
    const found = await walk(api(), "/api/tag?limit=100&q=needle&sort=-label");
    expect(found).toHaveLength(1000);
    const labels = found.map((tag) => String(tag.label));
    expect(labels[0]).toBe("Needle-11988");
    expect(labels.at(-1)).toBe("Needle-00000");
    expect(labels).toEqual([...labels].sort().reverse());
  });
});
