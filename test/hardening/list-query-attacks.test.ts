import { type SignedIn, setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printFigures } from "./support/figures.js";
import { safetyProblems } from "./support/http.js";
import { type Served, serve } from "./support/served.js";

/**
 * Attacks on the list queries (docs/api.md#lists: `q`, `sort`, `where.<field>`, the cursors of a
 * sorted list) and on the setup role's reads of another user (`?userId=` on sessions, passkeys and
 * two-step status; `events/summary`), the way an outside review makes them: by another user, an
 * `@Owner`-restricted caller, a member of another organization, an API key with narrow scopes and an
 * anonymous caller. Each test asserts the safe answer: the list stays what the caller may read
 * whatever is searched, filtered or sorted; forged cursors are 400 (never 500, never a leak); the
 * password (or its hash) is never searched or sorted by; only the setup role reads another user.
 */

const ORGS = "/api/orgs";
const SECRET_TITLE = "zz-secret-note-of-victim";
const SECRET_PROJECT = "zz-secret-project-of-globex";
const VAULT_PASSWORD = "hunter2-vault-password";
const figures = { attacks: 0, requests: 0 };

const YAML = `name: listattacks
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Reader }
    permissions:
      read: [Admin, "@Owner"]
      update: [Admin, "@Owner"]
      delete: [Admin]
  Note:
    fields:
      title: { type: string, required: true }
      body: text
      stars: integer
      weight: number
      pinned: { type: boolean, default: false }
      mood: { type: enum, values: [happy, sad] }
      due: datetime
    permissions:
      create: ["*"]
      read: ["@Owner", Admin]
      update: ["@Owner"]
      delete: ["@Owner"]
  Vault:
    fields:
      label: { type: string, required: true }
      password: string
    permissions:
      create: [Admin]
      read: ["*"]
      update: [Admin]
      delete: [Admin]
  Project:
    tenant: true
    fields:
      title: { type: string, required: true, maxLength: 200 }
      budget: integer
      lead: { type: ref, to: User }
    permissions:
      create: ["@Member"]
      read: ["@Member", Admin]
      update: ["@Member"]
      delete: ["@Member"]
auth:
  type: jwt
  entity: User
  roles: [Admin, Editor, Reader]
  organizations:
    roles: [Owner, Manager, Member]
    manage: [Owner, Manager]
`;

interface Item {
  readonly id: string;
  readonly [field: string]: unknown;
}

interface Page {
  readonly items: Item[];
  readonly total?: number;
  readonly nextCursor: string | null;
}

interface Issues {
  readonly code: string;
  readonly issues?: { path: string[]; message: string }[];
}

const pageOf = (answer: Answer): Page => answer.body as Page;
const itemOf = (answer: Answer): Item => (answer.body as { item: Item }).item;
const cursor = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

describe.each(BACKENDS)("attacks on list queries and setup-role reads on $name", (backend) => {
  let database: TestDatabase;
  let served: Served;
  const reports: unknown[] = [];
  let counter = 0;
  const email = (label: string) => `${label}-${++counter}@example.com`;
  let admin: SignedIn;
  let victim: SignedIn;
  let attacker: SignedIn;
  let victimNotes: Item[] = [];
  let attackerNote: Item;
  let acme: string;
  let globex: string;
  let acmeOwner: SignedIn;
  let globexOwner: SignedIn;
  let globexProject: Item;
  let acmeProject: Item;

  beforeAll(async () => {
    figures.attacks = 0;
    figures.requests = 0;
    database = await backend.create();
    served = await serve(database.url, YAML, { registerLimit: 100_000, onError: (error: unknown) => reports.push(error) });
    admin = await setUpAdmin(served.base);
    victim = await signUp(served.base, { email: email("victim"), name: "Victim Person" });
    attacker = await signUp(served.base, { email: email("attacker"), name: "Attacker" });
    victimNotes = [];
    for (const [index, title] of [SECRET_TITLE, "alpha victim", "beta victim"].entries()) {
      const created = await send("POST", "/api/note", {
        token: victim.token,
        body: { title, stars: 100 + index, weight: 9.5, pinned: true, mood: "sad", due: "2030-01-01T00:00:00.000Z" },
      });
      expect(created.status, created.text).toBe(201);
      victimNotes.push(itemOf(created));
    }
    const mine = await send("POST", "/api/note", { token: attacker.token, body: { title: "attacker note", stars: 1, mood: "happy" } });
    expect(mine.status, mine.text).toBe(201);
    attackerNote = itemOf(mine);
    for (const label of ["first", "second"]) {
      const vault = await send("POST", "/api/vault", { token: admin.token, body: { label: `vault ${label}`, password: VAULT_PASSWORD } });
      expect(vault.status, vault.text).toBe(201);
    }
    acmeOwner = await signUp(served.base, { email: email("acme") });
    globexOwner = await signUp(served.base, { email: email("globex") });
    acme = await organization(acmeOwner, "Acme");
    globex = await organization(globexOwner, "Globex");
    const created = await send("POST", `${ORGS}/${globex}/project`, {
      token: globexOwner.token,
      body: { title: SECRET_PROJECT, budget: 5_000_000, lead: globexOwner.id },
    });
    expect(created.status, created.text).toBe(201);
    globexProject = itemOf(created);
    const own = await send("POST", `${ORGS}/${acme}/project`, { token: acmeOwner.token, body: { title: "acme project", budget: 10 } });
    expect(own.status, own.text).toBe(201);
    acmeProject = itemOf(own);
  });

  afterAll(async () => {
    printFigures(`list-query-attacks.test.ts (${backend.name})`, { "attacks tried": figures.attacks, "requests sent": figures.requests });
    await served?.close();
    await database?.drop();
  });

  /** One request; every answer must be safe (no 5xx, no stack trace, no secret, the documented error body). */
  async function send(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> {
    const answer = await call(served.base, {
      method,
      path,
      token: options.token,
      ...(options.body === undefined ? {} : { body: options.body }),
    });
    figures.requests++;
    expect(safetyProblems(answer, { head: method === "HEAD" }), `${method} ${path}: ${answer.status} ${answer.text}`).toEqual([]);
    return answer;
  }

  async function organization(owner: SignedIn, name: string): Promise<string> {
    const created = await send("POST", ORGS, { token: owner.token, body: { name } });
    expect(created.status, created.text).toBe(201);
    return (created.body as { organization: { id: string } }).organization.id;
  }

  async function apiKey(owner: SignedIn, scopes?: string[]): Promise<string> {
    const created = await send("POST", "/api/user/api-keys", { token: owner.token, body: { name: "k", ...(scopes ? { scopes } : {}) } });
    expect(created.status, created.text).toBe(201);
    return (created.body as { key: string }).key;
  }

  /** A 400 `INVALID_QUERY` naming `path` among its issues. */
  function expectInvalid(answer: Answer, path: string): void {
    figures.attacks++;
    expect(answer.status, answer.text).toBe(400);
    const body = answer.body as Issues;
    expect(body.code).toBe("INVALID_QUERY");
    expect(
      body.issues?.map((issue) => issue.path.join(".")),
      answer.text,
    ).toContain(path);
  }

  /** No secret of the victim (nor of Globex) in an answer. */
  function expectNoLeak(answer: Answer): void {
    figures.attacks++;
    for (const secret of [
      SECRET_TITLE,
      "alpha victim",
      "beta victim",
      SECRET_PROJECT,
      ...victimNotes.map((note) => note.id),
      globexProject.id,
    ]) {
      expect(answer.text, `leaked ${secret}`).not.toContain(secret);
    }
  }

  // --- @Owner lists -------------------------------------------------------------------------------

  it("an @Owner list stays the caller's whatever q, where and sort ask", async () => {
    const queries = [
      `q=${encodeURIComponent(SECRET_TITLE)}`,
      "q=victim",
      "q=%25",
      "q=_",
      `q=${encodeURIComponent("' OR 1=1 --")}`,
      `q=${encodeURIComponent("%' OR '1'='1")}`,
      `where.ownerId=${victim.id}`,
      `where.ownerId=${victim.id}&q=victim&sort=-stars`,
      "where.mood=sad",
      "where.pinned=true",
      "where.mood=",
      "sort=-stars",
      "sort=title",
      "sort=-ownerId",
      "sort=ownerId",
      "sort=-due",
      "total=exact&where.mood=sad",
      "total=exact&q=a",
    ];
    for (const query of queries) {
      const answer = await send("GET", `/api/note?${query}`, { token: attacker.token });
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      expectNoLeak(answer);
      const page = pageOf(answer);
      for (const item of page.items) expect(item.ownerId, query).toBe(attacker.id);
      expect(page.total ?? 0, `${query}: total counts only the caller's`).toBeLessThanOrEqual(1);
    }
    // The caller's own note is found as asked.
    const own = pageOf(await send("GET", "/api/note?q=attacker&where.mood=happy&sort=-stars", { token: attacker.token }));
    expect(own.items.map((item) => item.id)).toEqual([attackerNote.id]);
  });

  it("an @Owner list's total and order reveal nothing of others' records", async () => {
    // `where.ownerId=<victim>` must be empty, not count the victim's three notes.
    const filtered = pageOf(await send("GET", `/api/note?where.ownerId=${victim.id}&total=exact`, { token: attacker.token }));
    expect(filtered.items).toEqual([]);
    expect(filtered.total).toBe(0);
    // Sorting by stars with a cursor positioned at the victim's values walks only the caller's records.
    for (const position of [cursor(["-stars", 1000, "z"]), cursor(["stars", -1, ""]), cursor(["stars", 100, victimNotes[0]?.id])]) {
      const sort = JSON.parse(Buffer.from(position, "base64url").toString()) as [string];
      const answer = await send("GET", `/api/note?sort=${sort[0]}&after=${position}`, { token: attacker.token });
      if (answer.status === 200) {
        expectNoLeak(answer);
        for (const item of pageOf(answer).items) expect(item.ownerId).toBe(attacker.id);
      } else expectInvalid(answer, "after");
    }
  });

  it("an anonymous caller is refused before any list query is read", async () => {
    for (const query of ["q=victim", "sort=password", `where.ownerId=${victim.id}`, `after=${cursor(["x", 1, "y"])}`, "where.nope=1"]) {
      const answer = await send("GET", `/api/note?${query}`);
      figures.attacks++;
      expect(answer.status, `${query}: ${answer.text}`).toBe(401);
      expectNoLeak(answer);
    }
  });

  // --- the users list ----------------------------------------------------------------------------

  it("the users list never searches, sorts or filters by the password or its hash", async () => {
    // A bcrypt hash starts with $2; none of the users' e-mails or names hold it.
    for (const query of ["q=%242", "q=%242b%24", "q=%242a", "q=%24"]) {
      const answer = await send("GET", `/api/user?${query}&total=exact`, { token: admin.token });
      expect(answer.status, answer.text).toBe(200);
      figures.attacks++;
      expect(pageOf(answer).total, `${query} matched a hash`).toBe(0);
      expect(answer.text).not.toMatch(/\$2[aby]\$/);
    }
    // The test password itself is nowhere searched.
    const plain = await send("GET", "/api/user?q=horse&total=exact", { token: admin.token });
    expect(pageOf(plain).total).toBe(0);
    for (const field of ["password", "-password", "passwordHash", "-passwordHash", "tokenVersion", "emailVerified", "everVerified"]) {
      expectInvalid(await send("GET", `/api/user?sort=${field}`, { token: admin.token }), "sort");
    }
    for (const field of ["password", "passwordHash", "tokenVersion", "emailVerified", "email", "name", "id"]) {
      expectInvalid(await send("GET", `/api/user?where.${field}=x`, { token: admin.token }), `where.${field}`);
    }
  });

  it("a non-admin's users list stays their own whatever where.role, q and sort ask", async () => {
    const queries = [
      "where.role=Admin",
      "where.role=Reader",
      "where.role=",
      "q=example.com",
      "q=admin",
      "sort=-email",
      "sort=role",
      "sort=-role&q=%40",
    ];
    for (const query of queries) {
      const answer = await send("GET", `/api/user?${query}&total=exact`, { token: attacker.token });
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      figures.attacks++;
      const page = pageOf(answer);
      expect(answer.text).not.toContain(admin.email);
      expect(answer.text).not.toContain(victim.email);
      for (const item of page.items) expect(item.id).toBe(attacker.id);
      expect(page.total ?? 0).toBeLessThanOrEqual(1);
    }
    expect(pageOf(await send("GET", "/api/user?where.role=Admin&total=exact", { token: attacker.token })).total).toBe(0);
    // An admin does see them: the filter works, so the empty answer above is the owner scope's.
    const admins = pageOf(await send("GET", "/api/user?where.role=Admin&total=exact", { token: admin.token }));
    expect(admins.items.map((item) => item.id)).toEqual([admin.id]);
    expectInvalid(await send("GET", "/api/user?where.role=Root", { token: attacker.token }), "where.role");
  });

  // --- a non-auth entity's `password` field (stored as data, never returned) -----------------------

  it("a non-auth entity's password field, never returned, is not a search, sort or filter oracle either", async () => {
    const answer = await send("GET", "/api/vault", { token: attacker.token });
    expect(answer.status, answer.text).toBe(200);
    // Precondition: the field is not returned.
    expect(answer.text).not.toContain(VAULT_PASSWORD);
    figures.attacks++;
    // Searching for text only the hidden password holds must find nothing.
    const searched = await send("GET", `/api/vault?q=${encodeURIComponent("hunter2")}&total=exact`, { token: attacker.token });
    expect(searched.status, searched.text).toBe(200);
    expect(pageOf(searched).total, "q matched the never-returned password field").toBe(0);
    // Sorting by it must be refused, and its cursor must not carry its value.
    const sorted = await send("GET", "/api/vault?sort=password&limit=1", { token: attacker.token });
    expect(sorted.text).not.toContain(Buffer.from(VAULT_PASSWORD).toString("base64url").slice(0, 8));
    if (sorted.status === 200) {
      const next = pageOf(sorted).nextCursor;
      expect(next ? Buffer.from(next, "base64url").toString() : "", "the cursor carries the password").not.toContain(VAULT_PASSWORD);
    }
    expectInvalid(sorted, "sort");
  });

  it("a non-auth entity's never-returned password field is no filter either, and its value never reaches a cursor", async () => {
    // Anonymous: the entity's read is "*".
    const descending = await send("GET", "/api/vault?sort=-password&limit=1");
    const next = descending.status === 200 ? pageOf(descending).nextCursor : null;
    figures.attacks++;
    expect(next ? Buffer.from(next, "base64url").toString() : "", "nextCursor discloses the password").not.toContain(VAULT_PASSWORD);
    expectInvalid(await send("GET", `/api/vault?where.password=${VAULT_PASSWORD}`, { token: attacker.token }), "where.password");
  });

  // --- tenant lists ------------------------------------------------------------------------------

  it("a tenant list stays its organization's whatever q, where, sort or cursor ask", async () => {
    const queries = [
      `q=${encodeURIComponent(SECRET_PROJECT)}`,
      "q=zz",
      `where.lead=${globexOwner.id}`,
      "sort=-budget",
      "sort=-budget&total=exact",
      `where.organizationId=${globex}`,
      `organizationId=${globex}`,
      `after=${cursor(["-budget", 10_000_000, "z"])}&sort=-budget`,
      `after=${cursor(["budget", 5_000_000, "0"])}&sort=budget`,
      `after=${cursor(["title", SECRET_PROJECT, "0"])}&sort=title`,
      `after=${cursor([globexProject.createdAt, "0"])}`,
      `after=${cursor(["-createdAt", String(globexProject.createdAt), globexProject.id])}&sort=-createdAt`,
    ];
    for (const query of queries) {
      const answer = await send("GET", `${ORGS}/${acme}/project?${query}`, { token: acmeOwner.token });
      if (query.startsWith("where.organizationId")) {
        expectInvalid(answer, "where.organizationId");
        continue;
      }
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      expectNoLeak(answer);
      const page = pageOf(answer);
      for (const item of page.items) expect(item.organizationId, query).toBe(acme);
      expect(page.total ?? 0, query).toBeLessThanOrEqual(1);
    }
    // A cursor Globex's list made, replayed on Acme's list, pages Acme's records only.
    const theirs = pageOf(await send("GET", `${ORGS}/${globex}/project?sort=-budget&limit=1`, { token: globexOwner.token }));
    expect(theirs.items.map((item) => item.id)).toEqual([globexProject.id]);
    const crafted = cursor(["-budget", 5_000_000, globexProject.id]);
    const replayed = await send("GET", `${ORGS}/${acme}/project?sort=-budget&after=${crafted}`, { token: acmeOwner.token });
    expect(replayed.status, replayed.text).toBe(200);
    expectNoLeak(replayed);
    expect(pageOf(replayed).items.map((item) => item.id)).toEqual([acmeProject.id]);
    // A member of Acme cannot read Globex's list at all, refined or not.
    for (const query of ["", "?q=zz", "?sort=-budget", `?where.lead=${globexOwner.id}`]) {
      const answer = await send("GET", `${ORGS}/${globex}/project${query}`, { token: acmeOwner.token });
      figures.attacks++;
      expect([403, 404], answer.text).toContain(answer.status);
      expectNoLeak(answer);
    }
  });

  // --- forged cursors ----------------------------------------------------------------------------

  it("forged, tampered and foreign cursors are 400 at after, never a 500", async () => {
    const token = victim.token;
    const id = victimNotes[0]?.id ?? "x";
    const bad: [sort: string, after: string][] = [
      // Wrong types for the sort key: text under a number, a number under text, objects, arrays, booleans.
      ["stars", cursor(["stars", "100", id])],
      ["stars", cursor(["stars", "NaN", id])],
      ["stars", cursor(["stars", "Infinity", id])],
      ["stars", cursor(["stars", true, id])],
      ["stars", cursor(["stars", { $gt: 0 }, id])],
      ["stars", cursor(["stars", [1], id])],
      ["title", cursor(["title", 5, id])],
      ["title", cursor(["title", { a: 1 }, id])],
      ["-due", cursor(["-due", 17, id])],
      ["-weight", cursor(["-weight", "9.5", id])],
      ["pinned", cursor(["pinned", "true", id])],
      ["mood", cursor(["mood", 1, id])],
      // Wrong ids, wrong shapes.
      ["stars", cursor(["stars", 1, 1])],
      ["stars", cursor(["stars", 1, ""])],
      ["stars", cursor(["stars", 1, "x".repeat(129)])],
      ["stars", cursor(["stars", 1, "a\u0000b"])],
      ["stars", cursor(["stars", 1])],
      ["stars", cursor(["stars", 1, id, "extra"])],
      ["stars", cursor({ sort: "stars", value: 1, id })],
      ["title", cursor(["title", "a\u0000b", id])],
      // Another order's cursor: the other direction, another key, the default order's, one of no order.
      ["-stars", cursor(["stars", 1, id])],
      ["stars", cursor(["title", "a", id])],
      ["stars", cursor(["2026-01-01T00:00:00.000Z", id])],
      ["password", cursor(["password", "a", id])],
      ["stars", "not base64!"],
      ["stars", "%00"],
      ["stars", "x".repeat(5000)],
      ["stars", cursor(["stars", 1, id]).replace(/.$/, "*")],
      ["stars", Buffer.from('["stars",1,').toString("base64url")],
      ["stars", Buffer.from('["stars",1e999,"a"]').toString("base64url")],
      ["stars", Buffer.from('["stars",-1e999,"a"]').toString("base64url")],
      ["stars", Buffer.from('["stars",NaN,"a"]').toString("base64url")],
      ["stars", cursor([null, 1, id])],
      ["createdAt", cursor(["createdAt", null, id])],
      ["-createdAt", cursor(["-createdAt", null, id])],
      ["stars", cursor(["", 1, id])],
      ["stars", cursor(["s".repeat(201), 1, id])],
    ];
    for (const [sort, after] of bad) {
      const answer = await send("GET", `/api/note?sort=${encodeURIComponent(sort)}&after=${encodeURIComponent(after)}`, { token });
      expect(answer.status, `sort=${sort} after=${Buffer.from(after, "base64url").toString()}: ${answer.text}`).toBe(400);
      figures.attacks++;
      expect((answer.body as Issues).code).toBe("INVALID_QUERY");
    }
    // Default order: a sorted cursor, or an instant that is no instant.
    for (const after of [cursor(["stars", 1, id]), cursor(["2026-13-45T99:99:99.000Z", id]), cursor(["yesterday", id]), cursor([0, id])]) {
      expectInvalid(await send("GET", `/api/note?after=${after}`, { token }), "after");
    }
  });

  it("a well-formed cursor whose value the column cannot hold is a 400 or a page, never a 500", async () => {
    const token = victim.token;
    const id = victimNotes[0]?.id ?? "x";
    // Numbers a JSON cursor may hold but an integer (64-bit on PostgreSQL) or a boolean column cannot.
    const cases: [sort: string, value: unknown][] = [
      ["stars", 1e308],
      ["-stars", -1e308],
      ["stars", 1.5],
      ["stars", 2 ** 63],
      ["stars", 1e20],
      ["-stars", 0.1],
      ["pinned", 0.5],
      ["pinned", 2],
      ["pinned", 1e300],
      ["weight", 1e308],
      ["weight", -5e-324],
      ["title", "x".repeat(2000)],
      ["title", "\ud800"],
      ["title", "%_\\'\""],
      ["-due", "not a date"],
      ["-createdAt", "not an instant"],
      ["updatedAt", "\u00e9\u0301"],
      ["ownerId", "' OR 1=1 --"],
      ["mood", "neither"],
    ];
    const failures: string[] = [];
    for (const [sort, value] of cases) {
      const path = `/api/note?sort=${encodeURIComponent(sort)}&after=${cursor([sort, value, id])}`;
      const answer = await call(served.base, { path, token });
      figures.requests++;
      figures.attacks++;
      if (![200, 400].includes(answer.status))
        failures.push(`sort=${sort} value=${JSON.stringify(value)}: ${answer.status} ${answer.text}`);
      else if (answer.status === 200) for (const item of pageOf(answer).items) expect(item.ownerId).toBe(victim.id);
      else expect((answer.body as Issues).code).toBe("INVALID_QUERY");
    }
    // The tenant list's integer too, on a member's own organization.
    for (const value of [1e308, 1.5, 2 ** 63]) {
      const path = `${ORGS}/${acme}/project?sort=budget&after=${cursor(["budget", value, acmeProject.id])}`;
      const answer = await call(served.base, { path, token: acmeOwner.token });
      figures.requests++;
      figures.attacks++;
      if (![200, 400].includes(answer.status))
        failures.push(`project sort=budget value=${JSON.stringify(value)}: ${answer.status} ${answer.text}`);
    }
    // What these reported is this test's to show (as `failures`): the last test checks the others'.
    reports.length = 0;
    expect(failures, "cursors answered neither 200 nor 400").toEqual([]);
  });

  it("a sorted list's own cursors page through every record of the caller's, once each, by every sort key", async () => {
    const keys = ["createdAt", "updatedAt", "title", "stars", "weight", "pinned", "mood", "due", "ownerId"];
    for (const key of keys) {
      for (const sort of [key, `-${key}`]) {
        const seen: string[] = [];
        let after: string | null = null;
        for (let guard = 0; guard < 10; guard++) {
          const path: string = `/api/note?sort=${sort}&limit=1${after ? `&after=${after}` : ""}`;
          const answer = await send("GET", path, { token: victim.token });
          figures.attacks++;
          expect(answer.status, `${path}: ${answer.text}`).toBe(200);
          const page = pageOf(answer);
          seen.push(...page.items.map((item) => item.id));
          after = page.nextCursor;
          if (!after) break;
        }
        expect([...seen].sort(), sort).toEqual(victimNotes.map((note) => note.id).sort());
      }
    }
  });

  // --- injection and odd parameters --------------------------------------------------------------

  it("q, where and sort are never SQL or a LIKE pattern", async () => {
    const token = victim.token;
    // LIKE wildcards match themselves: no note title holds them.
    for (const q of ["%", "_", "%%", "\\", "\\%", "[a-z]", "*", "a%b"]) {
      const answer = await send("GET", `/api/note?q=${encodeURIComponent(q)}&total=exact`, { token });
      figures.attacks++;
      expect(answer.status, answer.text).toBe(200);
      expect(pageOf(answer).total, `q=${q}`).toBe(0);
    }
    for (const q of ["' OR '1'='1", '") OR 1=1 --', "'; DROP TABLE note; --", "\u0000", "a\u0000b"]) {
      const answer = await send("GET", `/api/note?q=${encodeURIComponent(q)}&total=exact`, { token });
      figures.attacks++;
      expect([200, 400], answer.text).toContain(answer.status);
      if (answer.status === 200) expect(pageOf(answer).total, `q=${q}`).toBe(0);
    }
    for (const sort of [
      "title;drop",
      "title desc",
      "-title,id",
      '"title"',
      "title--",
      "--title",
      "+title",
      "1",
      "(select 1)",
      "TITLE",
      "body",
      "-body",
      "organizationId",
    ]) {
      expectInvalid(await send("GET", `/api/note?sort=${encodeURIComponent(sort)}`, { token }), "sort");
    }
    for (const [name, value] of [
      ["where.mood", "sad' OR '1'='1"],
      ["where.pinned", "1"],
      ["where.pinned", "TRUE"],
      ["where.title", SECRET_TITLE],
      ["where.body", "x"],
      ["where.stars", "100"],
      ["where.id", victimNotes[0]?.id ?? ""],
      ["where.createdAt", "x"],
      ["where.ownerId", "x".repeat(129)],
      ["where.ownerId", "a\u0000b"],
      ["where.", "x"],
      ["where.__proto__", "x"],
      ["where.constructor", "x"],
      ["where.organizationId", "x"],
    ] as const) {
      expectInvalid(await send("GET", `/api/note?${encodeURIComponent(name)}=${encodeURIComponent(value)}`, { token }), name);
    }
    // The tables are still there.
    expect(pageOf(await send("GET", "/api/note?total=exact", { token })).total).toBe(3);
  });

  it("repeated and oversized parameters are 400, never a 500 or the first one silently", async () => {
    const token = victim.token;
    expectInvalid(await send("GET", "/api/note?where.mood=sad&where.mood=happy", { token }), "where.mood");
    expectInvalid(await send("GET", `/api/note?q=${"a".repeat(101)}`, { token }), "q");
    expectInvalid(await send("GET", "/api/note?q=", { token }), "q");
    expectInvalid(await send("GET", "/api/note?sort=", { token }), "sort");
    expectInvalid(await send("GET", "/api/note?sort=-", { token }), "sort");
    expectInvalid(await send("GET", `/api/note?sort=${"x".repeat(10_000)}`, { token }), "sort");
    // `where.<optional field>=` is "holds none", not an error; on a required one it is.
    expect((await send("GET", "/api/note?where.pinned=", { token })).status).toBe(200);
    expectInvalid(await send("GET", `${ORGS}/${acme}/project?where.lead=${"x".repeat(129)}`, { token: acmeOwner.token }), "where.lead");
    // Many distinct filter names: each refused, the answer bounded.
    const many = Array.from({ length: 500 }, (_, index) => `where.f${index}=1`).join("&");
    const answer = await send("GET", `/api/note?${many}`, { token });
    expectInvalid(answer, "where.f0");
    expect(answer.text.length).toBeLessThan(200_000);
    // Repeats of q and sort are either refused or read once: never a 500.
    for (const query of ["q=a&q=b", "sort=title&sort=-title", "after=x&after=y", "limit=1&limit=1000"]) {
      const repeated = await send("GET", `/api/note?${query}`, { token });
      figures.attacks++;
      expect([200, 400], repeated.text).toContain(repeated.status);
    }
  });

  // --- API keys ----------------------------------------------------------------------------------

  it("an API key without read scope cannot search, sort or filter a list; one with it stays its owner's", async () => {
    const narrow = await apiKey(attacker, ["note:create"]).catch(() => null);
    if (narrow) {
      for (const query of ["q=victim", `where.ownerId=${victim.id}`, "sort=-stars"]) {
        const answer = await send("GET", `/api/note?${query}`, { token: narrow });
        figures.attacks++;
        expect(answer.status, `${query}: ${answer.text}`).toBe(403);
        expectNoLeak(answer);
      }
    }
    const reader = await apiKey(attacker);
    for (const query of ["q=victim", `where.ownerId=${victim.id}&total=exact`, "sort=-stars", "q=%25"]) {
      const answer = await send("GET", `/api/note?${query}`, { token: reader });
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      expectNoLeak(answer);
      for (const item of pageOf(answer).items) expect(item.ownerId).toBe(attacker.id);
    }
    const users = await send("GET", "/api/user?where.role=Admin&q=admin&total=exact", { token: reader });
    expect(users.status, users.text).toBe(200);
    expect(users.text).not.toContain(admin.email);
  });

  // --- the setup role's reads of another user ----------------------------------------------------

  const OTHER_USER_READS = ["/api/user/sessions", "/api/user/passkeys", "/api/user/mfa/totp"];

  it("only the setup role reads another user's sessions, passkeys and two-step status", async () => {
    for (const path of OTHER_USER_READS) {
      // Anyone may name themselves; another user is 403 (and an unknown id too: no existence oracle).
      const self = await send("GET", `${path}?userId=${attacker.id}`, { token: attacker.token });
      expect(self.status, `${path} self: ${self.text}`).toBe(200);
      const other = await send("GET", `${path}?userId=${victim.id}`, { token: attacker.token });
      const unknown = await send("GET", `${path}?userId=00000000-0000-0000-0000-000000000000`, { token: attacker.token });
      const empty = await send("GET", `${path}?userId=`, { token: attacker.token });
      for (const answer of [other, unknown, empty]) {
        figures.attacks++;
        expect(answer.status, `${path}: ${answer.text}`).toBe(403);
        expect(answer.text).not.toContain(victim.email);
      }
      expect(other.body).toEqual(unknown.body);
      // Repeats: the first one named must not be checked while another is served.
      for (const query of [
        `userId=${attacker.id}&userId=${victim.id}`,
        `userId=${victim.id}&userId=${attacker.id}`,
        `userid=${victim.id}`,
        `userId=${encodeURIComponent(` ${victim.id}`)}`,
        `userId=${encodeURIComponent(victim.id.toUpperCase())}`,
        `userId%3D${victim.id}`,
        `%75serId=${victim.id}`,
      ]) {
        const answer = await send("GET", `${path}?${query}`, { token: attacker.token });
        figures.attacks++;
        expect([200, 400, 403, 404], `${path}?${query}: ${answer.text}`).toContain(answer.status);
        expect(answer.text, `${path}?${query}`).not.toContain(victim.email);
        if (answer.status === 200) expect(JSON.stringify(answer.body)).toEqual(JSON.stringify(self.body));
      }
      // Anonymous, HEAD and an API key (even the setup role's).
      const anonymous = await send("GET", `${path}?userId=${victim.id}`);
      figures.attacks++;
      expect(anonymous.status).toBe(401);
      const head = await send("HEAD", `${path}?userId=${victim.id}`, { token: attacker.token });
      figures.attacks++;
      expect([403, 405], `HEAD ${path}`).toContain(head.status);
      const key = await apiKey(admin);
      const byKey = await send("GET", `${path}?userId=${victim.id}`, { token: key });
      figures.attacks++;
      expect([401, 403], `${path} by an API key: ${byKey.text}`).toContain(byKey.status);
      // The setup role reads them, and an unknown id is 404.
      const read = await send("GET", `${path}?userId=${victim.id}`, { token: admin.token });
      expect(read.status, `${path} as admin: ${read.text}`).toBe(200);
      expect(read.text).not.toMatch(/"(token|refreshToken|secret|publicKey|credentialId|tokenHash)"\s*:/);
      const missing = await send("GET", `${path}?userId=00000000-0000-0000-0000-000000000000`, { token: admin.token });
      expect(missing.status, missing.text).toBe(404);
    }
  });

  it("a session list of another user, as the setup role, never marks a session current nor carries a token", async () => {
    const answer = await send("GET", `/api/user/sessions?userId=${victim.id}`, { token: admin.token });
    expect(answer.status, answer.text).toBe(200);
    const text = answer.text;
    expect(text).not.toContain(victim.token);
    expect(text).not.toContain(victim.refreshToken);
    expect(text).not.toContain('"current":true');
  });

  it("events/summary is the setup role's alone", async () => {
    for (const window of ["", "?window=24h", "?window=7d", "?window=1y", "?window=24h&window=7d"]) {
      const path = `/api/user/events/summary${window}`;
      const anonymous = await send("GET", path);
      expect(anonymous.status, anonymous.text).toBe(401);
      const user = await send("GET", path, { token: attacker.token });
      figures.attacks += 2;
      expect(user.status, `${path}: ${user.text}`).toBe(403);
      expect(user.text).not.toMatch(/signIns|failures|topFailingAddresses/);
      const head = await send("HEAD", path, { token: attacker.token });
      expect([403, 405]).toContain(head.status);
    }
    const key = await apiKey(admin);
    const byKey = await send("GET", "/api/user/events/summary", { token: key });
    figures.attacks++;
    expect([401, 403], byKey.text).toContain(byKey.status);
    const read = await send("GET", "/api/user/events/summary?window=7d", { token: admin.token });
    expect(read.status, read.text).toBe(200);
    expectInvalid(await send("GET", "/api/user/events/summary?window=1y", { token: admin.token }), "window");
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const answer = await send(method, "/api/user/events/summary", { token: attacker.token, body: {} });
      figures.attacks++;
      expect([401, 403, 404, 405], `${method}: ${answer.text}`).toContain(answer.status);
    }
  });

  it("no error reached the server's error report", () => {
    expect(reports).toEqual([]);
  });
});
