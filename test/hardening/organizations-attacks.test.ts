import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type SignedIn, setUpAdmin, signIn, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { TEAMS_YAML } from "@domain-auth/test-support/domains";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { type MailServer, startMailServer, tokenOf } from "@domain-auth/test-support/mail-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpMailer } from "../../packages/auth-core/src/index.js";
import { printFigures } from "./support/figures.js";
import { rawRequest, safetyProblems } from "./support/http.js";
import { type Served, serve } from "./support/served.js";

/**
 * Attacks on organizations (docs/organizations.md) the way an outside review makes them, against the
 * rule "no record of one organization is reachable from another": by id, list and cursor, update,
 * delete and references; HEAD and odd methods; encoded paths; the organization id in the query or
 * the body; API keys of members of another organization; removed members on a second instance over
 * the same database; invitation tokens replayed, guessed, expired or used by another account; role
 * escalation and the last Owner; deleting a user; races (two acceptances of one token, demotions on
 * two instances, and, on PostgreSQL, requests held behind a lock on the organization's row so that
 * their order is forced, not left to luck); and existence oracles (an organization that exists but
 * the caller is not in must answer exactly as one that does not exist).
 *
 * Each test asserts the attack is refused. Domain: TEAMS_YAML (tenant entities Project and Task,
 * Task.project → Project; organization roles Owner, Manager, Member).
 */

const ORGS = "/api/orgs";
const APP_URL = "https://app.example.com";
const SECRET = "globex-secret-project";
const SECRET_TASK = "globex-secret-task";
const figures = { attacks: 0, requests: 0 };

interface Item {
  readonly id: string;
  readonly title: string;
  readonly organizationId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly budget?: number | null;
  readonly project?: string | null;
  readonly ownerId?: string | null;
}

interface Page {
  readonly items: Item[];
  readonly total?: number;
  readonly nextCursor: string | null;
}

interface MemberView {
  readonly userId: string;
  readonly email: string;
  readonly role: string;
}

const itemOf = (answer: Answer): Item => (answer.body as { item: Item }).item;
const pageOf = (answer: Answer): Page => answer.body as Page;
const membersOf = (answer: Answer): MemberView[] => (answer.body as { items: MemberView[] }).items;

/** A list cursor as the API makes them (base64url of `[createdAt, id]`), built by hand. */
function cursorOf(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

/** Every character of `text` percent-encoded. */
function encodeAll(text: string): string {
  return [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

/** What two answers must share to be indistinguishable: status, body and the headers a client reads. */
function fingerprint(answer: Answer): unknown {
  const headers = ["allow", "www-authenticate", "content-type", "retry-after", "content-length"].map(
    (name) => [name, answer.headers.get(name)] as const,
  );
  return { status: answer.status, body: answer.body ?? answer.text, headers };
}

describe.each(BACKENDS)("attacks on organizations on $name", (backend) => {
  const postgres = backend.name === "postgres";
  // These races need PostgreSQL's row locks to be held open; SQLite serializes writers, so they do not exist there.
  const onPostgres = (name: string, test: () => Promise<void>): void => {
    if (postgres) it(name, test);
  };
  let database: TestDatabase;
  let mail: MailServer;
  /** Sends e-mail; most requests go here. */
  let first: Served;
  /** A second instance over the same database. */
  let second: Served;
  let clock = Date.now();
  const reports: unknown[] = [];
  let counter = 0;
  const email = (label: string) => `${label}-${++counter}@example.com`;
  const mailed = new Map<string, number>();
  let admin: SignedIn;

  beforeAll(async () => {
    database = await backend.create();
    mail = await startMailServer();
    const common = { now: () => clock, registerLimit: 100_000, onError: (error: unknown) => reports.push(error) };
    first = await serve(database.url, TEAMS_YAML, {
      ...common,
      mail: { mailer: createSmtpMailer({ url: mail.url, from: "Teams <no-reply@app.example.com>" }), appUrl: APP_URL, log: () => {} },
    });
    second = await serve(database.url, TEAMS_YAML, common);
    admin = await setUpAdmin(first.base);
  });

  afterAll(async () => {
    printFigures(`organizations-attacks.test.ts (${backend.name})`, {
      "attacks tried": figures.attacks,
      "requests sent": figures.requests,
    });
    await first?.close();
    await second?.close();
    await mail?.close();
    await database?.drop();
  });

  // --- helpers -------------------------------------------------------------------------------

  /** One request; every answer must be safe (no 5xx, no stack trace, no secret, the documented error body). */
  async function send(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; on?: Served; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const answer = await call((options.on ?? first).base, {
      method,
      path,
      token: options.token,
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    figures.requests++;
    expect(safetyProblems(answer, { head: method === "HEAD" }), `${method} ${path}: ${answer.status} ${answer.text}`).toEqual([]);
    return answer;
  }

  const fresh = (person: SignedIn): Promise<SignedIn> => signIn(first.base, person);
  const person = (label: string): Promise<SignedIn> => signUp(first.base, { email: email(label) });

  async function createOrganization(owner: SignedIn, name: string, slug?: string): Promise<string> {
    const created = await send("POST", ORGS, { token: owner.token, body: slug ? { name, slug } : { name } });
    expect(created.status, created.text).toBe(201);
    return (created.body as { organization: { id: string } }).organization.id;
  }

  /** Invites `address` (a fresh sign-in of the manager: a recent one); the token of the link mailed. */
  async function invite(manager: SignedIn, organizationId: string, address: string, role: string): Promise<string> {
    const token = (await fresh(manager)).token;
    const answer = await send("POST", `${ORGS}/${organizationId}/invitations`, { token, body: { email: address, role } });
    expect(answer.status, answer.text).toBe(201);
    const count = (mailed.get(address) ?? 0) + 1;
    mailed.set(address, count);
    return tokenOf(await mail.waitFor(address, { count }));
  }

  function accept(who: SignedIn | string, token: string, on: Served = first): Promise<Answer> {
    return send("POST", `${ORGS}/invitations/accept`, { token: typeof who === "string" ? who : who.token, body: { token }, on });
  }

  /** A new person who joined `organizationId` as `role` through an invitation. */
  async function join(manager: SignedIn, organizationId: string, role: string, label = role.toLowerCase()): Promise<SignedIn> {
    const joined = await person(label);
    const accepted = await accept(joined, await invite(manager, organizationId, joined.email, role));
    expect(accepted.status, accepted.text).toBe(200);
    return joined;
  }

  async function create(organizationId: string, segment: string, who: SignedIn, body: Record<string, unknown>): Promise<Item> {
    const created = await send("POST", `${ORGS}/${organizationId}/${segment}`, { token: who.token, body });
    expect(created.status, created.text).toBe(201);
    return itemOf(created);
  }

  async function apiKey(owner: SignedIn, scopes?: string[]): Promise<string> {
    const created = await call(first.base, {
      method: "POST",
      path: "/api/user/api-keys",
      token: (await fresh(owner)).token,
      body: { name: "k", ...(scopes ? { scopes } : {}) },
    });
    expect(created.status, created.text).toBe(201);
    return (created.body as { key: string }).key;
  }

  async function listMembers(organizationId: string, token: string): Promise<MemberView[]> {
    const page = await send("GET", `${ORGS}/${organizationId}/members?limit=100`, { token });
    expect(page.status, page.text).toBe(200);
    return membersOf(page);
  }

  /** The membership rows of a user, read from the database itself (not through the API). */
  async function membershipRows(userId: string): Promise<{ organizationId: string; role: string }[]> {
    const db = first.auth.tools.apiKeys?.store.database.db;
    if (!db) throw new Error("no database");
    return (await db.selectFrom("domain_auth_memberships").select(["organizationId", "role"]).where("userId", "=", userId).execute()) as {
      organizationId: string;
      role: string;
    }[];
  }

  /**
   * PostgreSQL: holds the organization's row `for update` in a transaction of its own, so requests
   * that lock it queue behind it in the order they arrive; `waiters(n)` waits until n sessions wait
   * for a lock (a deadline, not a speed assumption), `release()` commits.
   */
  async function holdOrganization(organizationId: string) {
    const holder = new pg.Client({ connectionString: database.url });
    const watcher = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await watcher.connect();
    await holder.query("begin");
    const held = await holder.query("select id from domain_auth_organizations where id = $1 for update", [organizationId]);
    expect(held.rowCount).toBe(1);
    return {
      async waiters(count: number): Promise<void> {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const { rows } = await watcher.query<{ n: string }>(
            "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          if (Number(rows[0]?.n) >= count) return;
          if (Date.now() > deadline) throw new Error(`fewer than ${count} requests waiting for the organization's lock`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      async release(): Promise<void> {
        await holder.query("commit");
        await holder.end();
        await watcher.end();
      },
    };
  }

  // --- records of one organization from another ----------------------------------------------

  describe("records of one organization reached from another", () => {
    let ownerA: SignedIn;
    let managerA: SignedIn;
    let memberA: SignedIn;
    let ownerB: SignedIn;
    /** A Member of A and a Manager of B. */
    let dual: SignedIn;
    let A: string;
    let B: string;
    let pA: Item;
    let pB: Item;
    let pB2: Item;
    let tA: Item;
    let tB: Item;

    beforeAll(async () => {
      ownerA = await person("owner-a");
      A = await createOrganization(ownerA, "Acme");
      managerA = await join(ownerA, A, "Manager");
      memberA = await join(ownerA, A, "Member");
      dual = await join(ownerA, A, "Member", "dual");
      ownerB = await person("owner-b");
      B = await createOrganization(ownerB, "Globex");
      expect((await accept(dual, await invite(ownerB, B, dual.email, "Manager"))).status).toBe(200);
      pA = await create(A, "project", managerA, { title: "acme-project" });
      await create(A, "project", managerA, { title: "acme-project-2" });
      pB = await create(B, "project", ownerB, { title: SECRET, budget: 7 });
      pB2 = await create(B, "project", ownerB, { title: `${SECRET}-2` });
      tA = await create(A, "task", memberA, { title: "acme-task", project: pA.id });
      tB = await create(B, "task", ownerB, { title: SECRET_TASK, project: pB.id });
    });

    /** B's records are as they were created: nothing an attack did reached them. */
    async function expectGlobexUntouched(): Promise<void> {
      const project = await send("GET", `${ORGS}/${B}/project/${pB.id}`, { token: ownerB.token });
      expect(project.status, project.text).toBe(200);
      expect(itemOf(project)).toMatchObject({ id: pB.id, title: SECRET, budget: 7, organizationId: B, updatedAt: pB.updatedAt });
      const task = await send("GET", `${ORGS}/${B}/task/${tB.id}`, { token: ownerB.token });
      expect(itemOf(task)).toMatchObject({ id: tB.id, title: SECRET_TASK, project: pB.id, organizationId: B, updatedAt: tB.updatedAt });
      const listed = pageOf(await send("GET", `${ORGS}/${B}/project?limit=100`, { token: ownerB.token }));
      expect(listed.items.every((item) => item.organizationId === B)).toBe(true);
    }

    it("answers another organization's record by id as it answers a made-up id: GET, HEAD, PATCH, DELETE, for every caller in the path's organization", async () => {
      for (const who of [ownerA, managerA, memberA, dual, admin]) {
        for (const [segment, record] of [
          ["project", pB],
          ["task", tB],
        ] as const) {
          const patch = segment === "project" ? { title: "pwned", budget: 1 } : { title: "pwned" };
          for (const [method, body] of [["GET"], ["HEAD"], ["PATCH", patch], ["DELETE"]] as const) {
            figures.attacks++;
            const real = await send(method, `${ORGS}/${A}/${segment}/${record.id}`, { token: who.token, body });
            const madeUp = await send(method, `${ORGS}/${A}/${segment}/${randomUUID()}`, { token: who.token, body });
            const what = `${who.email} ${method} ${segment}: ${real.status} ${real.text}`;
            // 404; or the 403 a member gets before any record is looked up (the same for any id).
            expect([403, 404], what).toContain(real.status);
            expect(fingerprint(real), what).toEqual(fingerprint(madeUp));
            expect(real.text).not.toContain(SECRET);
          }
        }
      }
      await expectGlobexUntouched();
    });

    it("lists only the path's organization: every page by cursor and by offset, total=exact, tasks and members", async () => {
      figures.attacks++;
      const seen: Item[] = [];
      let cursor: string | null = null;
      for (let guard = 0; guard < 50; guard++) {
        const path: string = `${ORGS}/${A}/project?limit=1${cursor ? `&after=${cursor}` : ""}`;
        const page = pageOf(await send("GET", path, { token: memberA.token }));
        seen.push(...page.items);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.every((item) => item.organizationId === A)).toBe(true);
      const exact = pageOf(await send("GET", `${ORGS}/${A}/project?limit=100&total=exact`, { token: memberA.token }));
      expect(exact.total).toBe(exact.items.length);
      expect(exact.items.map((item) => item.id).sort()).toEqual(seen.map((item) => item.id).sort());
      for (const offset of [0, 1, 2, 100]) {
        const page = pageOf(await send("GET", `${ORGS}/${A}/project?limit=100&offset=${offset}`, { token: memberA.token }));
        expect(page.items.every((item) => item.organizationId === A)).toBe(true);
      }
      const tasks = pageOf(await send("GET", `${ORGS}/${A}/task?limit=100&total=exact`, { token: dual.token }));
      expect(tasks.items.map((item) => item.id)).toEqual([tA.id]);
      expect(tasks.total).toBe(1);
      const people = await listMembers(A, memberA.token);
      expect(people.map((member) => member.userId)).not.toContain(ownerB.id);
      expect(people.map((member) => member.email)).not.toContain(ownerB.email);
    });

    it("pages only within the path's organization with a cursor replayed from another organization, or built by hand", async () => {
      const globexPage = pageOf(await send("GET", `${ORGS}/${B}/project?limit=1`, { token: ownerB.token }));
      expect(globexPage.nextCursor).toEqual(expect.any(String));
      const cursors = [
        globexPage.nextCursor ?? "",
        cursorOf("1970-01-01T00:00:00.000Z", "0"),
        cursorOf(pB.createdAt, pB.id),
        cursorOf(new Date(Date.parse(pB.createdAt) - 1).toISOString(), pB.id),
        cursorOf("1970-01-01T00:00:00.000Z", "' or 1=1 --"),
      ];
      for (const after of cursors) {
        figures.attacks++;
        for (const segment of ["project", "task"]) {
          const answer = await send("GET", `${ORGS}/${A}/${segment}?limit=100&after=${after}`, { token: ownerA.token });
          expect(answer.status, answer.text).toBe(200);
          expect(pageOf(answer).items.every((item) => item.organizationId === A)).toBe(true);
          expect(answer.text).not.toContain(SECRET);
        }
        const people = await send("GET", `${ORGS}/${A}/members?limit=100&after=${after}`, { token: memberA.token });
        expect([200, 400]).toContain(people.status);
        if (people.status === 200) expect(membersOf(people).map((member) => member.userId)).not.toContain(ownerB.id);
      }
      // A's own cursor in B's path, by a member of A only: B is not theirs.
      const acmePage = pageOf(await send("GET", `${ORGS}/${A}/project?limit=1`, { token: ownerA.token }));
      const crossed = await send("GET", `${ORGS}/${B}/project?limit=100&after=${acmePage.nextCursor}`, { token: ownerA.token });
      expect(crossed).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      expect(pB2.organizationId).toBe(B);
    });

    it("takes the organization from the path only: not from the query, a header or the body", async () => {
      figures.attacks++;
      const queried = await send("GET", `${ORGS}/${A}/project?limit=100&organizationId=${B}`, { token: ownerA.token });
      expect([200, 400]).toContain(queried.status);
      expect(queried.text).not.toContain(SECRET);
      if (queried.status === 200) expect(pageOf(queried).items.every((item) => item.organizationId === A)).toBe(true);
      const item = await send("GET", `${ORGS}/${A}/project/${pB.id}?organizationId=${B}`, { token: ownerA.token });
      expect(item.status).toBe(404);
      const headed = await send("GET", `${ORGS}/${A}/project?limit=100`, {
        token: ownerA.token,
        headers: { "x-organization-id": B, "x-org-id": B, organization: B },
      });
      expect(pageOf(headed).items.every((each) => each.organizationId === A)).toBe(true);
      // The organization endpoints too: the path's organization, whatever the query names.
      const people = await send("GET", `${ORGS}/${A}/members?limit=100&orgId=${B}&organizationId=${B}`, { token: memberA.token });
      expect([200, 400]).toContain(people.status);
      if (people.status === 200) expect(membersOf(people).map((member) => member.userId)).not.toContain(ownerB.id);
      const organization = await send("GET", `${ORGS}/${A}?orgId=${B}`, { token: memberA.token });
      expect(organization.body).toMatchObject({ organization: { id: A }, role: "Member" });
      // Outside /api/orgs a tenant entity does not exist, whatever the query says.
      for (const path of [`/api/project?organizationId=${B}`, `/api/project/${pB.id}`, `/api/task?organizationId=${B}`]) {
        for (const who of [ownerB, admin]) expect((await send("GET", path, { token: who.token })).status).toBe(404);
      }
      await expectGlobexUntouched();
    });

    it("ignores organizationId, id, createdAt and updatedAt in bodies: a record is created in the path's organization, never takes another's id, never moves", async () => {
      figures.attacks++;
      const planted = await send("POST", `${ORGS}/${A}/project`, {
        token: ownerA.token,
        body: {
          title: "planted",
          organizationId: B,
          id: pB.id,
          createdAt: "1999-01-01T00:00:00.000Z",
          updatedAt: "1999-01-01T00:00:00.000Z",
        },
      });
      expect(planted.status, planted.text).toBe(201);
      const made = itemOf(planted);
      expect(made.organizationId).toBe(A);
      expect(made.id).not.toBe(pB.id);
      expect(made.createdAt).not.toMatch(/^1999/);
      const moved = await send("PATCH", `${ORGS}/${A}/project/${made.id}`, {
        token: ownerA.token,
        body: { title: "moved?", organizationId: B, id: pB.id, createdAt: "1999-01-01T00:00:00.000Z" },
      });
      expect(moved.status, moved.text).toBe(200);
      expect(itemOf(moved)).toMatchObject({ id: made.id, organizationId: A, createdAt: made.createdAt, title: "moved?" });
      expect((await send("GET", `${ORGS}/${B}/project/${made.id}`, { token: ownerB.token })).status).toBe(404);
      const byDual = await send("GET", `${ORGS}/${B}/project/${made.id}`, { token: dual.token });
      expect(byDual.status).toBe(404);
      // A task body naming B everywhere stays in A, and its reference is checked in A.
      const task = await send("POST", `${ORGS}/${A}/task`, {
        token: dual.token,
        body: { title: "t", project: pA.id, organizationId: B, id: tB.id },
      });
      expect(task.status, task.text).toBe(201);
      expect(itemOf(task)).toMatchObject({ organizationId: A, project: pA.id });
      expect(itemOf(task).id).not.toBe(tB.id);
      await expectGlobexUntouched();
    });

    it("refuses a reference into another organization on create and update, exactly as a made-up id, even for a member of both", async () => {
      const madeUp = randomUUID();
      for (const [who, organizationId, foreign] of [
        [memberA, A, pB.id],
        [dual, A, pB.id],
        [dual, B, pA.id],
        [ownerB, B, pA.id],
      ] as const) {
        figures.attacks++;
        const crossed = await send("POST", `${ORGS}/${organizationId}/task`, { token: who.token, body: { title: "x", project: foreign } });
        const invented = await send("POST", `${ORGS}/${organizationId}/task`, { token: who.token, body: { title: "x", project: madeUp } });
        expect(crossed, crossed.text).toMatchObject({ status: 400, body: { code: "INVALID_BODY", issues: [{ path: ["project"] }] } });
        expect(crossed.body).toEqual(invented.body);
        const withOrg = await send("POST", `${ORGS}/${organizationId}/task`, {
          token: who.token,
          body: { title: "x", project: foreign, organizationId: organizationId === A ? B : A },
        });
        expect(withOrg.status).toBe(400);
      }
      for (const body of [{ project: pB.id }, { project: pB.id, organizationId: B }, { title: "y", project: pB2.id }]) {
        figures.attacks++;
        const answer = await send("PATCH", `${ORGS}/${A}/task/${tA.id}`, { token: dual.token, body });
        expect(answer, answer.text).toMatchObject({ status: 400, body: { code: "INVALID_BODY" } });
      }
      const task = itemOf(await send("GET", `${ORGS}/${A}/task/${tA.id}`, { token: memberA.token }));
      expect(task).toMatchObject({ project: pA.id, title: "acme-task", updatedAt: tA.updatedAt });
      // Deleting A's project releases only A's references; B's task still points at B's project.
      await expectGlobexUntouched();
    });

    it("keeps @Owner to the path's organization, and the owner field to the setup role", async () => {
      figures.attacks++;
      // dual is a Manager in B (creates there, owns it) and a Member in A (@Owner updates in A).
      const owned = await create(B, "project", dual, { title: "dual's" });
      expect(owned.ownerId).toBe(dual.id);
      for (const [method, body] of [["GET"], ["PATCH", { title: "via A" }], ["DELETE"]] as const) {
        const answer = await send(method, `${ORGS}/${A}/project/${owned.id}`, { token: dual.token, body });
        const madeUp = await send(method, `${ORGS}/${A}/project/${randomUUID()}`, { token: dual.token, body });
        expect(fingerprint(answer), `${method} ${answer.text}`).toEqual(fingerprint(madeUp));
        expect([403, 404]).toContain(answer.status);
      }
      expect(itemOf(await send("GET", `${ORGS}/${B}/project/${owned.id}`, { token: ownerB.token })).title).toBe("dual's");
      // Naming an owner (a member of another organization, or oneself on another's record) is the setup role's.
      const named = await send("POST", `${ORGS}/${A}/project`, { token: managerA.token, body: { title: "x", ownerId: ownerB.id } });
      expect(named).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      const taken = await send("PATCH", `${ORGS}/${A}/project/${pA.id}`, { token: memberA.token, body: { ownerId: memberA.id } });
      expect(taken.status).toBe(403);
      expect(itemOf(await send("GET", `${ORGS}/${A}/project/${pA.id}`, { token: memberA.token })).ownerId).toBe(managerA.id);
    });

    it("deletes an empty organization without touching another's records, and no one deletes another's", async () => {
      figures.attacks++;
      const empty = await createOrganization(ownerA, "Empty");
      expect((await send("DELETE", `${ORGS}/${B}`, { token: ownerA.token })).status).toBe(404);
      expect((await send("DELETE", `${ORGS}/${B}`, { token: dual.token })).status).toBe(403);
      expect((await send("DELETE", `${ORGS}/${empty}`, { token: ownerB.token })).status).toBe(404);
      expect((await send("DELETE", `${ORGS}/${empty}`, { token: ownerA.token })).status).toBe(204);
      expect((await send("DELETE", `${ORGS}/${A}`, { token: ownerA.token })).body).toMatchObject({ code: "ORGANIZATION_NOT_EMPTY" });
      await expectGlobexUntouched();
    });

    it("answers odd methods and HEAD alike for every organization: no record, no oracle", async () => {
      const nowhere = randomUUID();
      for (const who of [ownerA, ownerB]) {
        for (const [method, suffix] of [
          ["PUT", "/project"],
          ["PATCH", "/project"],
          ["DELETE", "/project"],
          ["PUT", `/project/${pB.id}`],
          ["POST", `/project/${pB.id}`],
          ["OPTIONS", `/project/${pB.id}`],
          ["HEAD", `/project/${pB.id}`],
          ["HEAD", "/project"],
          ["GET", `/project/${pB.id}/extra`],
        ] as const) {
          figures.attacks++;
          const real = await send(method, `${ORGS}/${A}${suffix}`, { token: who.token });
          const absent = await send(method, `${ORGS}/${nowhere}${suffix}`, { token: who.token });
          expect(real.text).not.toContain(SECRET);
          if (method === "HEAD" && suffix === "/project" && who === ownerA) {
            // A's own list: 200 with no body.
            expect(real.status).toBe(200);
            expect(real.text).toBe("");
            continue;
          }
          expect(fingerprint(real), `${who.email} ${method} ${suffix}: ${real.status} ${real.text}`).toEqual(fingerprint(absent));
          if (method === "HEAD") expect(real.text).toBe("");
        }
      }
    });

    it("never routes an encoded, dotted, doubled or re-cased path to another organization's records", async () => {
      const paths = [
        `/api/orgs/${A}/../${B}/project`,
        `/api/orgs/${A}/project/../../${B}/project`,
        `/api/orgs/${A}/./../${B}/project/${pB.id}`,
        `/api/orgs/${A}/..%2F${B}/project`,
        `/api/orgs/${A}%2F..%2F${B}/project`,
        `/api/orgs/${A}/project/..%2F..%2F${B}%2Fproject%2F${pB.id}`,
        `/api/orgs/${A}/project/%2e%2e/%2e%2e/${B}/project`,
        `/api/orgs/${A}/%2e%2e/${B}/project/${pB.id}`,
        `/api/orgs//${B}/project`,
        `//api/orgs/${B}/project`,
        `/api//orgs/${B}/project`,
        `/api/orgs/${B}//project`,
        `/api/orgs/${B}/project/`,
        `/api/orgs/${B}/project/${pB.id}`,
        `/api/orgs/${B.toUpperCase()}/project`,
        `/api/orgs/${encodeAll(B)}/project`,
        `/api/orgs/${B}%00/project`,
        `/api/orgs/${B}%20/project`,
        `/api/orgs/${A}/project/${pB.id.toUpperCase()}`,
        `/api/orgs/${A}/project/${encodeAll(pB.id)}`,
        `/api/orgs/${A}/project/${pB.id}/`,
        `/api/orgs/${A}/project/${pB.id}%00`,
        `/api/orgs/${A}/project;${B}/${pB.id}`,
        `/api/orgs/${A};/../${B}/project`,
        `/api/orgs/${A}/PROJECT/${pB.id}`,
        `/api/orgs/${A}/Project/${pB.id}`,
        `/api/ORGS/${B}/project`,
        `/API/orgs/${B}/project`,
        `/api/orgs/${A}\\..\\${B}/project`,
        `/api/orgs/${A}/project?x=/../../${B}/project`,
        `/api/orgs/${A}/project/${pB.id}#/../../../${B}/project/${pB.id}`,
        `/api/project/${pB.id}`,
        `/api/task/${tB.id}`,
        `http://127.0.0.1/api/orgs/${A}/../${B}/project`,
      ];
      for (const path of paths) {
        figures.attacks++;
        const answer = await rawRequest(first.port, [
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ownerA.token}\r\nConnection: close\r\n\r\n`,
        ]);
        figures.requests++;
        const what = `${path}: ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, what).toBeGreaterThanOrEqual(200);
        expect(answer.status, what).toBeLessThan(500);
        for (const secret of [SECRET, SECRET_TASK, pB.id, tB.id, B]) expect(answer.text, what).not.toContain(secret);
        if (!path.startsWith(`/api/orgs/${A}/project?x=`)) expect([400, 404], what).toContain(answer.status);
      }
    });

    it("lets an API key act only where its user is a member, narrowed by its scopes, and never on the organization's people", async () => {
      const keyB = await apiKey(ownerB);
      const readerA = await apiKey(ownerA, ["project:read"]);
      for (const [method, suffix, body] of [
        ["GET", "/project"],
        ["GET", `/project/${pA.id}`],
        ["PATCH", `/project/${pA.id}`, { title: "k" }],
        ["DELETE", `/project/${pA.id}`],
        ["POST", "/project", { title: "k" }],
        ["GET", "/task"],
        ["POST", "/task", { title: "k", project: pB.id }],
        ["GET", ""],
      ] as const) {
        figures.attacks++;
        const answer = await send(method, `${ORGS}/${A}${suffix}`, { token: keyB, body });
        expect(answer, `${method} ${suffix} ${answer.text}`).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      }
      expect(pageOf(await send("GET", `${ORGS}/${B}/project?limit=100`, { token: keyB })).items.length).toBeGreaterThan(0);
      // The reader key: project:read only, in A only.
      expect((await send("GET", `${ORGS}/${A}/project`, { token: readerA })).status).toBe(200);
      for (const [method, path, body] of [
        ["GET", `${ORGS}/${A}/task`],
        ["POST", `${ORGS}/${A}/project`, { title: "k" }],
        ["PATCH", `${ORGS}/${A}/project/${pA.id}`, { title: "k" }],
      ] as const) {
        figures.attacks++;
        expect((await send(method, path, { token: readerA, body })).status, `${method} ${path}`).toBe(403);
      }
      expect((await send("GET", `${ORGS}/${B}/project/${pB.id}`, { token: readerA })).status).toBe(404);
      // The organization's people and invitations need a signed-in session: never a key, whatever its scopes.
      const fullA = await apiKey(ownerA);
      for (const key of [readerA, fullA]) {
        for (const [method, path, body] of [
          ["PATCH", `${ORGS}/${A}/members/${memberA.id}`, { role: "Manager" }],
          ["DELETE", `${ORGS}/${A}/members/${memberA.id}`],
          ["POST", `${ORGS}/${A}/invitations`, { email: email("by-key"), role: "Owner" }],
          ["GET", `${ORGS}/${A}/invitations`],
          ["PATCH", `${ORGS}`, { name: "x" }],
          ["PATCH", `${ORGS}/${A}`, { name: "by key" }],
          ["DELETE", `${ORGS}/${A}`],
          ["POST", ORGS, { name: "by key" }],
        ] as const) {
          figures.attacks++;
          const answer = await send(method, path, { token: key, body });
          expect([401, 403, 405], `${method} ${path}: ${answer.status} ${answer.text}`).toContain(answer.status);
        }
      }
      expect((await listMembers(A, ownerA.token)).find((member) => member.userId === memberA.id)?.role).toBe("Member");
      // A key cannot accept an invitation either (joining is a signed-in session's).
      const invited = await person("key-invitee");
      const token = await invite(ownerA, A, invited.email, "Member");
      const byKey = await accept(await apiKey(invited), token);
      expect([401, 403]).toContain(byKey.status);
      expect(await membershipRows(invited.id)).toEqual([]);
      expect((await accept(invited, token)).status).toBe(200);
    });

    it("refuses a removed member at once on both instances: records, their own records, the organization, their key, their old link", async () => {
      figures.attacks++;
      const leaver = await person("leaver");
      const link = await invite(ownerA, A, leaver.email, "Manager");
      expect((await accept(leaver, link)).status).toBe(200);
      const mine = await create(A, "project", leaver, { title: "leaver's" });
      const key = await apiKey(leaver);
      for (const on of [first, second]) {
        expect((await send("GET", `${ORGS}/${A}/project`, { token: leaver.token, on })).status).toBe(200);
        expect((await send("GET", `${ORGS}/${A}/project`, { token: key, on })).status).toBe(200);
      }
      expect((await send("DELETE", `${ORGS}/${A}/members/${leaver.id}`, { token: ownerA.token, on: second })).status).toBe(204);
      for (const on of [second, first]) {
        for (const credential of [leaver.token, key]) {
          for (const [method, suffix, body] of [
            ["GET", "/project"],
            ["GET", `/project/${mine.id}`],
            ["PATCH", `/project/${mine.id}`, { title: "still mine?" }],
            ["DELETE", `/project/${mine.id}`],
            ["POST", "/project", { title: "x" }],
            ["GET", "/task"],
            ["GET", ""],
          ] as const) {
            const answer = await send(method, `${ORGS}/${A}${suffix}`, { token: credential, body, on });
            expect(answer.status, `${method} ${suffix} on ${on === first ? "first" : "second"}`).toBe(404);
          }
        }
        for (const [method, suffix, body] of [
          ["GET", "/members"],
          ["GET", "/invitations"],
          ["POST", "/invitations", { email: email("backdoor"), role: "Manager" }],
          ["PATCH", `/members/${memberA.id}`, { role: "Manager" }],
        ] as const) {
          expect((await send(method, `${ORGS}/${A}${suffix}`, { token: leaver.token, body, on })).status).toBe(404);
        }
        const listed = await send("GET", ORGS, { token: leaver.token, on });
        expect((listed.body as { items: { id: string }[] }).items.map((item) => item.id)).not.toContain(A);
        // The link they joined by is spent: it does not bring them back.
        expect(await accept(leaver, link, on)).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      }
      expect(itemOf(await send("GET", `${ORGS}/${A}/project/${mine.id}`, { token: ownerA.token })).title).toBe("leaver's");
      expect(await membershipRows(leaver.id)).toEqual([]);
    });

    it("applies a demotion at once on the other instance", async () => {
      figures.attacks++;
      const demoted = await join(ownerA, A, "Manager", "demoted");
      expect((await send("POST", `${ORGS}/${A}/project`, { token: demoted.token, body: { title: "ok" }, on: second })).status).toBe(201);
      expect((await send("PATCH", `${ORGS}/${A}/members/${demoted.id}`, { token: ownerA.token, body: { role: "Member" } })).status).toBe(
        200,
      );
      const refused = await send("POST", `${ORGS}/${A}/project`, { token: demoted.token, body: { title: "no" }, on: second });
      expect(refused).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      const promote = await send("PATCH", `${ORGS}/${A}/members/${memberA.id}`, {
        token: demoted.token,
        body: { role: "Manager" },
        on: second,
      });
      expect(promote.status).toBe(403);
      const inviting = await send("POST", `${ORGS}/${A}/invitations`, {
        token: (await fresh(demoted)).token,
        body: { email: email("x"), role: "Member" },
        on: second,
      });
      expect(inviting.status).toBe(403);
    });

    it("keeps one organization's members and invitations out of another's paths", async () => {
      const pendingB = await send("POST", `${ORGS}/${B}/invitations`, {
        token: (await fresh(ownerB)).token,
        body: { email: email("pending-b"), role: "Member" },
      });
      expect(pendingB.status).toBe(201);
      const invitationB = (pendingB.body as { id: string }).id;
      const ownerAFresh = await fresh(ownerA);
      for (const [method, path, body] of [
        ["PATCH", `${ORGS}/${A}/members/${ownerB.id}`, { role: "Member" }],
        ["DELETE", `${ORGS}/${A}/members/${ownerB.id}`],
        ["DELETE", `${ORGS}/${A}/invitations/${invitationB}`],
      ] as const) {
        figures.attacks++;
        const answer = await send(method, path, { token: ownerAFresh.token, body });
        expect(answer, `${method} ${path}: ${answer.text}`).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      }
      expect((await listMembers(B, ownerB.token)).find((member) => member.userId === dual.id)?.role).toBe("Manager");
      expect((await listMembers(B, ownerB.token)).find((member) => member.userId === ownerB.id)?.role).toBe("Owner");
      const invitations = await send("GET", `${ORGS}/${B}/invitations`, { token: ownerB.token });
      expect((invitations.body as { items: { id: string }[] }).items.map((item) => item.id)).toContain(invitationB);
      // dual manages B: not A's invitations (a Member there).
      expect((await send("GET", `${ORGS}/${A}/invitations`, { token: dual.token })).status).toBe(403);
      const listing = await send("GET", `${ORGS}?userId=${ownerB.id}&organizationId=${B}`, { token: ownerA.token });
      expect([200, 400]).toContain(listing.status);
      if (listing.status === 200) {
        expect((listing.body as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([A]);
      }
      // Another user's events (where organization ids show) are the setup role's.
      const events = await send("GET", `/api/user/events?userId=${ownerB.id}`, { token: ownerA.token });
      expect(events.status).toBe(403);
    });

    it("answers exactly the same for an organization that exists but the caller is not in as for one that does not exist", async () => {
      const stranger = await person("stranger");
      const strangerKey = await apiKey(stranger);
      const readerKeyB = await apiKey(ownerB, ["project:read", "task:read"]);
      const callers: [string, string | undefined][] = [
        ["stranger", stranger.token],
        ["owner of B", ownerB.token],
        ["stranger's key", strangerKey],
        ["B's reader key", readerKeyB],
        ["anonymous", undefined],
        ["garbage token", "not-a-token"],
        ["garbage key", "da_notakey"],
      ];
      const requests: [string, string, unknown?][] = [
        ["GET", ""],
        ["HEAD", ""],
        ["PATCH", "", { name: "x" }],
        ["PATCH", "", { slug: "BAD SLUG" }],
        ["DELETE", ""],
        ["PUT", ""],
        ["POST", ""],
        ["GET", "/members"],
        ["GET", "/members?after=garbage&limit=1000"],
        ["PATCH", `/members/${ownerA.id}`, { role: "Member" }],
        ["PATCH", `/members/${ownerA.id}`, { role: "Nobody" }],
        ["DELETE", `/members/${ownerA.id}`],
        ["DELETE", `/members/${stranger.id}`],
        ["GET", "/invitations"],
        ["POST", "/invitations", { email: email("oracle"), role: "Owner" }],
        ["POST", "/invitations", {}],
        ["POST", "/invitations", "not json"],
        ["DELETE", `/invitations/${randomUUID()}`],
        ["POST", "/invitations/accept", { token: "x" }],
        ["GET", "/project"],
        ["GET", "/project?after=garbage&offset=1&limit=100000"],
        ["POST", "/project", { title: "x" }],
        ["POST", "/project", { nope: 1 }],
        ["POST", "/project", "not json"],
        ["GET", `/project/${pA.id}`],
        ["HEAD", `/project/${pA.id}`],
        ["PATCH", `/project/${pA.id}`, { title: "x" }],
        ["DELETE", `/project/${pA.id}`],
        ["GET", "/task"],
        ["POST", "/task", { title: "x", project: pA.id }],
        ["GET", "/nothing-here"],
        ["GET", `/project/${pA.id}/more`],
        ["OPTIONS", "/project"],
      ];
      const nowhere = randomUUID();
      for (const [label, token] of callers) {
        for (const [method, suffix, body] of requests) {
          figures.attacks++;
          const options = { ...(token === undefined ? {} : { token }), ...(body === undefined ? {} : { body }) };
          const real = await send(method, `${ORGS}/${A}${suffix}`, options);
          const absent = await send(method, `${ORGS}/${nowhere}${suffix}`, options);
          const noUuid = await send(method, `${ORGS}/no-such-organization${suffix}`, options);
          const what = `${label}: ${method} ${suffix}: ${real.status} ${real.text} vs ${absent.status} ${absent.text}`;
          expect(fingerprint(real), what).toEqual(fingerprint(absent));
          expect(fingerprint(real), what).toEqual(fingerprint(noUuid));
          expect(real.status, what).not.toBe(200);
          expect(real.status, what).not.toBe(201);
          expect(real.status, what).not.toBe(204);
        }
      }
      // Nothing any of it did reached A.
      expect((await listMembers(A, ownerA.token)).find((member) => member.userId === ownerA.id)?.role).toBe("Owner");
      expect((await send("GET", `${ORGS}/${A}/project/${pA.id}`, { token: ownerA.token })).status).toBe(200);
      expect((await send("GET", `${ORGS}/${A}`, { token: ownerA.token })).body).toMatchObject({ organization: { name: "Acme" } });
    });

    it("never resolves an organization by its slug: a slug that spells another organization's id names nothing", async () => {
      figures.attacks++;
      const squatter = await person("squatter");
      // A slug may be 39 characters of [a-z0-9-]: B's id is one.
      const squatted = await send("POST", ORGS, { token: squatter.token, body: { name: "Squat", slug: B } });
      expect([201, 400, 409]).toContain(squatted.status);
      for (const path of [`${ORGS}/${B}`, `${ORGS}/${B}/project`, `${ORGS}/${B}/members`]) {
        const answer = await send("GET", path, { token: squatter.token });
        expect(answer, `${path} ${answer.text}`).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      }
      const slugged = await createOrganization(
        squatter,
        "Named",
        email("slug")
          .replace(/[^a-z0-9]/g, "")
          .slice(0, 20),
      );
      const slug = (await send("GET", `${ORGS}/${slugged}`, { token: squatter.token })).body as { organization: { slug: string } };
      expect((await send("GET", `${ORGS}/${slug.organization.slug}/project`, { token: squatter.token })).status).toBe(404);
      // Its own slug can be changed; never into one that is taken, and that never merges anything.
      const renamed = await send("PATCH", `${ORGS}/${slugged}`, { token: squatter.token, body: { slug: B } });
      expect([400, 409]).toContain(renamed.status);
    });
  });

  // --- invitations ----------------------------------------------------------------------------

  describe("invitation tokens", () => {
    let owner: SignedIn;
    let other: SignedIn;
    let organization: string;
    let otherOrganization: string;

    beforeAll(async () => {
      owner = await person("inviter");
      organization = await createOrganization(owner, "Inviting");
      other = await person("other-inviter");
      otherOrganization = await createOrganization(other, "Other");
    });

    it("mails ≥ 32 random bytes, stores only their SHA-256, and accepts neither the hash, the id nor a guessed token", async () => {
      const invited = await person("guessed");
      const token = await invite(owner, organization, invited.email, "Member");
      expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);
      const db = first.auth.tools.apiKeys?.store.database.db;
      if (!db) throw new Error("no database");
      const rows = (await db.selectFrom("domain_auth_org_invitations").selectAll().where("email", "=", invited.email).execute()) as Record<
        string,
        unknown
      >[];
      expect(rows).toHaveLength(1);
      const row = rows[0] as Record<string, unknown>;
      expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("base64url"));
      expect(JSON.stringify(rows)).not.toContain(token);
      const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
      const guesses = [
        String(row.tokenHash),
        createHash("sha256").update(token).digest("hex"),
        String(row.id),
        flipped,
        token.slice(0, -1),
        `${token}A`,
        token.toUpperCase(),
        randomBytes(32).toString("base64url"),
        randomBytes(32).toString("hex"),
        "",
        "a".repeat(5000),
        "\u0000".repeat(43),
      ];
      for (const guess of guesses) {
        figures.attacks++;
        const answer = await accept(invited, guess);
        expect([400, 413], `${JSON.stringify(guess.slice(0, 50))}: ${answer.text}`).toContain(answer.status);
      }
      for (const body of [{ token: [token] }, { token: { $ne: "" } }, { token: null }, {}]) {
        figures.attacks++;
        const answer = await send("POST", `${ORGS}/invitations/accept`, { token: invited.token, body });
        expect(answer.status, JSON.stringify(body)).toBe(400);
      }
      expect(await membershipRows(invited.id)).toEqual([]);
      // The real one, sent with another organization's id: refused, or it joins its own organization only.
      const steered = await send("POST", `${ORGS}/invitations/accept`, {
        token: invited.token,
        body: { token, organizationId: otherOrganization },
      });
      expect([200, 400]).toContain(steered.status);
      const accepted = steered.status === 200 ? steered : await accept(invited, token);
      expect(accepted.body).toMatchObject({ organization: { id: organization }, role: "Member" });
      expect(await membershipRows(invited.id)).toEqual([{ organizationId: organization, role: "Member" }]);
    });

    it("joins exactly the organization and role of the token: another organization's token brings nothing of this one", async () => {
      figures.attacks++;
      const invited = await person("two-invitations");
      const toMine = await invite(owner, organization, invited.email, "Member");
      const toOther = await invite(other, otherOrganization, invited.email, "Owner");
      const joinedOther = await accept(invited, toOther);
      expect(joinedOther.body).toMatchObject({ organization: { id: otherOrganization }, role: "Owner" });
      // An Owner elsewhere is nobody here.
      for (const path of [`${ORGS}/${organization}`, `${ORGS}/${organization}/project`, `${ORGS}/${organization}/members`]) {
        expect((await send("GET", path, { token: invited.token })).status).toBe(404);
      }
      const joinedMine = await accept(invited, toMine);
      expect(joinedMine.body).toMatchObject({ organization: { id: organization }, role: "Member" });
      const changed = await send("PATCH", `${ORGS}/${organization}/members/${owner.id}`, {
        token: invited.token,
        body: { role: "Member" },
      });
      expect(changed.status).toBe(403);
      expect((await membershipRows(invited.id)).sort((a, b) => a.organizationId.localeCompare(b.organizationId))).toEqual(
        [
          { organizationId: organization, role: "Member" },
          { organizationId: otherOrganization, role: "Owner" },
        ].sort((a, b) => a.organizationId.localeCompare(b.organizationId)),
      );
    });

    it("ignores an organizationId sent with an invitation: it is for the path's organization", async () => {
      figures.attacks++;
      const invited = await person("redirected");
      const answer = await send("POST", `${ORGS}/${organization}/invitations`, {
        token: (await fresh(owner)).token,
        body: { email: invited.email, role: "Member", organizationId: otherOrganization },
      });
      if (answer.status === 201) {
        mailed.set(invited.email, 1);
        const token = tokenOf(await mail.waitFor(invited.email));
        expect((await accept(invited, token)).body).toMatchObject({ organization: { id: organization } });
        expect((await membershipRows(invited.id)).map((row) => row.organizationId)).toEqual([organization]);
      } else {
        expect(answer.status).toBe(400);
      }
    });

    it("refuses replay, another account, an anonymous caller, a replaced, revoked or deleted organization's token", async () => {
      const invited = await person("replayed");
      const token = await invite(owner, organization, invited.email, "Manager");
      const thief = await person("thief");
      figures.attacks += 6;
      expect(await accept(thief, token)).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      expect(await accept(thief, token, second)).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      expect(await membershipRows(thief.id)).toEqual([]);
      expect((await send("POST", `${ORGS}/invitations/accept`, { body: { token } })).status).toBe(401);
      // An account named like the invited one is another account.
      const lookalike = await signUp(first.base, { email: invited.email.replace("@", ".x@") });
      expect((await accept(lookalike, token)).status).toBe(403);
      expect((await accept(invited, token, second)).body).toMatchObject({ role: "Manager" });
      expect(await accept(invited, token)).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      expect(await accept(thief, token)).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      // Replaced: the first link dies with the second; revoked: both die.
      const target = await person("replaced");
      const old = await invite(owner, organization, target.email, "Manager");
      const newer = await invite(owner, organization, target.email, "Member");
      expect((await accept(target, old)).body).toMatchObject({ code: "INVALID_INVITATION" });
      const pending = (await send("GET", `${ORGS}/${organization}/invitations`, { token: (await fresh(owner)).token })).body as {
        items: { id: string; email: string }[];
      };
      const mine = pending.items.filter((item) => item.email === target.email);
      expect(mine).toHaveLength(1);
      expect((await send("DELETE", `${ORGS}/${organization}/invitations/${mine[0]?.id}`, { token: owner.token })).status).toBe(204);
      expect((await accept(target, newer)).body).toMatchObject({ code: "INVALID_INVITATION" });
      expect(await membershipRows(target.id)).toEqual([]);
      // A deleted organization's links die with it.
      const shortLived = await createOrganization(owner, "Short");
      const late = await person("late");
      const lateToken = await invite(owner, shortLived, late.email, "Owner");
      expect((await send("DELETE", `${ORGS}/${shortLived}`, { token: owner.token })).status).toBe(204);
      expect(await accept(late, lateToken)).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      expect(await membershipRows(late.id)).toEqual([]);
    });

    it("keeps a pending invitation from being membership: the invited person sees nothing until they accept", async () => {
      figures.attacks++;
      const invited = await person("pending");
      const token = await invite(owner, organization, invited.email, "Owner");
      for (const path of [`${ORGS}/${organization}`, `${ORGS}/${organization}/project`, `${ORGS}/${organization}/members`]) {
        expect((await send("GET", path, { token: invited.token })).status).toBe(404);
      }
      expect((await accept(invited, token)).status).toBe(200);
    });

    it("settles two acceptances of one token at once: one joins, the other is refused, one membership", async () => {
      for (let round = 0; round < 3; round++) {
        figures.attacks++;
        const invited = await person(`race-accept-${round}`);
        const token = await invite(owner, organization, invited.email, "Member");
        const answers = await Promise.all(
          Array.from({ length: 4 }, (_, index) => accept(invited, token, postgres && index % 2 === 1 ? second : first)),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
        expect(await membershipRows(invited.id)).toEqual([{ organizationId: organization, role: "Member" }]);
        expect((await listMembers(organization, owner.token)).filter((member) => member.userId === invited.id)).toHaveLength(1);
      }
    });
  });

  // --- roles ----------------------------------------------------------------------------------

  describe("role escalation and the last Owner", () => {
    it("keeps a Manager below the first role and a Member out of management: self-promotion, grants, invitations, acting above", async () => {
      const owner = await person("ranked-owner");
      const organization = await createOrganization(owner, "Ranked");
      const manager = await join(owner, organization, "Manager");
      const peer = await join(owner, organization, "Manager", "peer");
      const plain = await join(owner, organization, "Member");
      const freshManager = await fresh(manager);
      const freshPlain = await fresh(plain);
      const members = `${ORGS}/${organization}/members`;
      const attempts: [SignedIn, string, string, unknown?][] = [
        [freshManager, "PATCH", `${members}/${manager.id}`, { role: "Owner" }],
        [freshManager, "PATCH", `${members}/${plain.id}`, { role: "Owner" }],
        [freshManager, "PATCH", `${members}/${peer.id}`, { role: "Owner" }],
        [freshManager, "PATCH", `${members}/${owner.id}`, { role: "Member" }],
        [freshManager, "PATCH", `${members}/${owner.id}`, { role: "Manager" }],
        [freshManager, "DELETE", `${members}/${owner.id}`],
        [freshManager, "POST", `${ORGS}/${organization}/invitations`, { email: email("alt"), role: "Owner" }],
        [freshManager, "POST", `${ORGS}/${organization}/invitations`, { email: owner.email, role: "Owner" }],
        [freshManager, "PATCH", `${ORGS}/${organization}`, { name: "Mine now" }],
        [freshManager, "DELETE", `${ORGS}/${organization}`],
        [freshPlain, "PATCH", `${members}/${plain.id}`, { role: "Manager" }],
        [freshPlain, "PATCH", `${members}/${plain.id}`, { role: "Owner" }],
        [freshPlain, "PATCH", `${members}/${manager.id}`, { role: "Member" }],
        [freshPlain, "DELETE", `${members}/${manager.id}`],
        [freshPlain, "POST", `${ORGS}/${organization}/invitations`, { email: email("alt"), role: "Member" }],
        [freshPlain, "GET", `${ORGS}/${organization}/invitations`],
        [freshPlain, "PATCH", `${ORGS}/${organization}`, { name: "Mine now" }],
      ];
      for (const [who, method, path, body] of attempts) {
        figures.attacks++;
        const answer = await send(method, path, { token: who.token, body });
        expect(answer, `${who.email} ${method} ${path} ${JSON.stringify(body)}: ${answer.text}`).toMatchObject({
          status: 403,
          body: { code: "FORBIDDEN" },
        });
      }
      const roles = Object.fromEntries((await listMembers(organization, owner.token)).map((member) => [member.userId, member.role]));
      expect(roles).toEqual({ [owner.id]: "Owner", [manager.id]: "Manager", [peer.id]: "Manager", [plain.id]: "Member" });
      expect((await send("GET", `${ORGS}/${organization}`, { token: owner.token })).body).toMatchObject({
        organization: { name: "Ranked" },
      });
      // An existing member invited again keeps their role: an invitation cannot demote or promote them.
      const reinvite = await invite(owner, organization, manager.email, "Member");
      expect((await accept(manager, reinvite)).body).toMatchObject({ role: "Manager" });
    });

    it("keeps the last Owner: demoting, removing, leaving, deleting the user, also by the setup role", async () => {
      const owner = await person("last-owner");
      const organization = await createOrganization(owner, "Last");
      const plain = await join(owner, organization, "Member");
      const members = `${ORGS}/${organization}/members`;
      const freshAdmin = await fresh(admin);
      for (const [who, method, path, body] of [
        [owner, "PATCH", `${members}/${owner.id}`, { role: "Manager" }],
        [owner, "PATCH", `${members}/${owner.id}`, { role: "Member" }],
        [owner, "DELETE", `${members}/${owner.id}`],
        [freshAdmin, "PATCH", `${members}/${owner.id}`, { role: "Member" }],
        [freshAdmin, "DELETE", `${members}/${owner.id}`],
        [freshAdmin, "DELETE", `/api/user/${owner.id}`],
      ] as const) {
        figures.attacks++;
        const answer = await send(method, path, { token: who.token, body });
        expect(answer, `${method} ${path}: ${answer.text}`).toMatchObject({ status: 409, body: { code: "LAST_OWNER" } });
      }
      expect((await listMembers(organization, owner.token)).map((member) => [member.userId, member.role])).toEqual([
        [owner.id, "Owner"],
        [plain.id, "Member"],
      ]);
    });

    it("deletes a user all or nothing: LAST_OWNER in one organization leaves every membership, record and organization as it was", async () => {
      figures.attacks++;
      const owner = await person("atomic");
      const blocking = await createOrganization(owner, "Blocking");
      const alone = await createOrganization(owner, "Alone");
      const kept = await createOrganization(owner, "Kept");
      const project = await create(kept, "project", owner, { title: "kept" });
      const blocker = await join(owner, blocking, "Member");
      const co = await person("co-owner");
      expect((await accept(co, await invite(owner, kept, co.email, "Owner"))).status).toBe(200);
      const before = (await membershipRows(owner.id)).sort((a, b) => a.organizationId.localeCompare(b.organizationId));
      expect(before).toHaveLength(3);
      const refused = await send("DELETE", `/api/user/${owner.id}`, { token: (await fresh(admin)).token });
      expect(refused).toMatchObject({ status: 409, body: { code: "LAST_OWNER" } });
      expect((await membershipRows(owner.id)).sort((a, b) => a.organizationId.localeCompare(b.organizationId))).toEqual(before);
      const still = await fresh(owner);
      expect((await send("GET", `${ORGS}/${alone}`, { token: still.token })).status).toBe(200);
      expect((await send("GET", `${ORGS}/${kept}/project/${project.id}`, { token: still.token })).status).toBe(200);
      expect((await listMembers(blocking, blocker.token)).map((member) => member.userId)).toContain(owner.id);
    });

    it("leaves an orphaned organization to the setup role only: no remaining link, stranger or former member takes it", async () => {
      figures.attacks++;
      const owner = await person("orphaning");
      const organization = await createOrganization(owner, "Orphan");
      const project = await create(organization, "project", owner, { title: "orphaned" });
      const former = await join(owner, organization, "Member", "former");
      expect((await send("DELETE", `${ORGS}/${organization}/members/${former.id}`, { token: former.token })).status).toBe(204);
      const freshAdmin = await fresh(admin);
      expect((await send("DELETE", `/api/user/${owner.id}`, { token: freshAdmin.token })).status).toBe(204);
      expect(await membershipRows(owner.id)).toEqual([]);
      const stranger = await person("claimer");
      for (const who of [former, stranger]) {
        for (const [method, suffix, body] of [
          ["GET", ""],
          ["GET", `/project/${project.id}`],
          ["PATCH", "", { name: "claimed" }],
          ["POST", "/invitations", { email: who.email, role: "Owner" }],
          ["DELETE", `/project/${project.id}`],
        ] as const) {
          const answer = await send(method, `${ORGS}/${organization}${suffix}`, { token: (await fresh(who)).token, body });
          expect(answer.status, `${method} ${suffix}`).toBe(404);
        }
      }
      expect((await send("GET", `${ORGS}/${organization}/members`, { token: freshAdmin.token })).body).toMatchObject({ items: [] });
      expect((await send("GET", `${ORGS}/${organization}/project/${project.id}`, { token: freshAdmin.token })).status).toBe(200);
    });

    it("settles two Owners demoting, removing or deleting each other at once: one Owner always remains", async () => {
      const other = postgres ? second : first;
      for (const mode of ["demote", "leave", "remove", "delete-users"] as const) {
        figures.attacks++;
        const one = await person(`race-${mode}-one`);
        const organization = await createOrganization(one, `Race ${mode}`);
        const two = await join(one, organization, "Owner", `race-${mode}-two`);
        const third = await join(one, organization, "Member", `race-${mode}-third`);
        const members = `${ORGS}/${organization}/members`;
        const freshAdmin = await fresh(admin);
        const pair: [Promise<Answer>, Promise<Answer>] =
          mode === "demote"
            ? [
                send("PATCH", `${members}/${one.id}`, { token: two.token, body: { role: "Member" } }),
                send("PATCH", `${members}/${two.id}`, { token: one.token, body: { role: "Member" }, on: other }),
              ]
            : mode === "leave"
              ? [
                  send("DELETE", `${members}/${one.id}`, { token: one.token }),
                  send("DELETE", `${members}/${two.id}`, { token: two.token, on: other }),
                ]
              : mode === "remove"
                ? [
                    send("DELETE", `${members}/${one.id}`, { token: two.token }),
                    send("DELETE", `${members}/${two.id}`, { token: one.token, on: other }),
                  ]
                : [
                    send("DELETE", `/api/user/${one.id}`, { token: freshAdmin.token }),
                    send("DELETE", `/api/user/${two.id}`, { token: freshAdmin.token, on: other }),
                  ];
        const answers = await Promise.all(pair);
        const statuses = answers.map((answer) => answer.status).sort();
        // The loser is refused: 409 LAST_OWNER, or (when the winner committed before the loser was admitted)
        // 403 for a demoted manager, 404 for a removed member.
        const allowed = {
          demote: [
            [200, 409],
            [200, 403],
          ],
          leave: [[204, 409]],
          remove: [
            [204, 409],
            [204, 404],
          ],
          "delete-users": [[204, 409]],
        }[mode];
        expect(allowed, `${mode}: ${answers.map((answer) => `${answer.status} ${answer.text}`).join(" | ")}`).toContainEqual(statuses);
        const owners = (await listMembers(organization, freshAdmin.token)).filter((member) => member.role === "Owner");
        expect(owners, mode).toHaveLength(1);
        expect((await listMembers(organization, freshAdmin.token)).map((member) => member.userId)).toContain(third.id);
      }
    });

    onPostgres(
      "refuses a grant by an Owner demoted while their request waited: the rank is the one at the change, not at the request's start",
      async () => {
        figures.attacks++;
        const one = await person("held-one");
        const organization = await createOrganization(one, "Held");
        const two = await join(one, organization, "Owner", "held-two");
        const target = await join(one, organization, "Member", "held-target");
        const members = `${ORGS}/${organization}/members`;
        const hold = await holdOrganization(organization);
        // one demotes two; it waits for the organization's row.
        const demotion = send("PATCH", `${members}/${two.id}`, { token: one.token, body: { role: "Member" } });
        await hold.waiters(1);
        // two, still an Owner when their request is admitted, makes target an Owner; it queues behind.
        const grant = send("PATCH", `${members}/${target.id}`, { token: two.token, body: { role: "Owner" }, on: second });
        await hold.waiters(2);
        await hold.release();
        const [demoted, granted] = await Promise.all([demotion, grant]);
        expect(demoted.status, demoted.text).toBe(200);
        // By then two is a Member: only the first role grants the first role.
        expect(granted, `the demoted Owner's grant: ${granted.status} ${granted.text}`).toMatchObject({
          status: 403,
          body: { code: "FORBIDDEN" },
        });
        const roles = Object.fromEntries((await listMembers(organization, one.token)).map((member) => [member.userId, member.role]));
        expect(roles[target.id]).toBe("Member");
      },
    );

    onPostgres(
      "leaves no membership to a user deleted while their acceptance waited, and so no phantom Owner that lets the last one leave",
      async () => {
        figures.attacks++;
        const owner = await person("phantom-owner");
        const organization = await createOrganization(owner, "Phantom");
        await create(organization, "project", owner, { title: "phantom's" });
        const doomed = await person("phantom");
        const token = await invite(owner, organization, doomed.email, "Owner");
        const hold = await holdOrganization(organization);
        // The acceptance is authenticated, then waits for the organization's row...
        const accepting = accept(doomed, token);
        await hold.waiters(1);
        // ...while the setup role deletes the account (not yet a member: nothing of the organization to
        // lock). The acceptance holds the account's row, so the deletion waits for it and then removes
        // the membership it made; had the deletion come first, the acceptance would find no account.
        const adminToken = (await fresh(admin)).token;
        const deleting = send("DELETE", `/api/user/${doomed.id}`, { token: adminToken });
        await hold.release();
        const accepted = await accepting;
        const deleted = await deleting;
        expect(deleted.status, deleted.text).toBe(204);
        // A deleted account must not hold a membership (docs/organizations.md#deleting-a-user)...
        expect.soft(await membershipRows(doomed.id), `the acceptance answered ${accepted.status} ${accepted.text}`).toEqual([]);
        // ...nor count as an Owner: the only real Owner, with records, cannot leave.
        const leaving = await send("DELETE", `${ORGS}/${organization}/members/${owner.id}`, { token: (await fresh(owner)).token });
        expect(leaving, leaving.text).toMatchObject({ status: 409, body: { code: "LAST_OWNER" } });
      },
    );
  });

  // --- last: moves the clock ------------------------------------------------------------------

  describe("expiry (moves the clock: last)", () => {
    it("refuses an invitation past 7 days, on both instances", async () => {
      figures.attacks++;
      const owner = await person("expiring-owner");
      const organization = await createOrganization(owner, "Expiring");
      const invited = await person("expiring");
      const token = await invite(owner, organization, invited.email, "Manager");
      clock += (7 * 24 * 3600 + 1) * 1000;
      const later = await fresh(invited);
      expect(await accept(later, token)).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      expect(await accept(later, token, second)).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      expect(await membershipRows(invited.id)).toEqual([]);
    });

    it("reported no unexpected error", () => {
      expect(reports.map((error) => String(error))).toEqual([]);
    });
  });
});
