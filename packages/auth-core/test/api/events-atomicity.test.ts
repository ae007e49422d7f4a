import { type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/admin.js";
import type { SecurityEvent } from "../../src/browser.js";
import { settled } from "../support/events.js";
import { startInstance, type TestInstance } from "../support/instance.js";
import { currentCode } from "../support/second-factors.js";

/**
 * No change commits without its event (docs/events.md): a trigger makes the events table refuse the
 * types a test names, and each change whose event is refused must leave nothing behind.
 */

/** Makes inserts of the types listed in a table of its own fail, on either database. */
async function installRefusal(database: Database): Promise<void> {
  await sql`create table test_refused_events (type text primary key)`.execute(database.db);
  if (database.dialect === "sqlite") {
    await sql`create trigger test_refuse_events before insert on domain_auth_events
      when new.type in (select type from test_refused_events)
      begin select raise(abort, 'event refused by the test'); end`.execute(database.db);
    return;
  }
  await sql`create function test_refuse_event() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from test_refused_events where type = new.type) then
        raise exception 'event refused by the test';
      end if;
      return new;
    end $$`.execute(database.db);
  await sql`create trigger test_refuse_events before insert on domain_auth_events
    for each row execute procedure test_refuse_event()`.execute(database.db);
}

describe.each(BACKENDS)("a change and its event on $name", (backend) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let instance: TestInstance;
  const heard: SecurityEvent[] = [];
  const errors: unknown[] = [];
  const api = () => instance.api;

  /** Runs `work` while the events of `type` are refused; the request it makes must fail with a logged 500. */
  async function refusing<T>(type: string, work: () => Promise<T>): Promise<T> {
    await sql`insert into test_refused_events (type) values (${type})`.execute(database.db);
    const logged = errors.length;
    try {
      return await work();
    } finally {
      await sql`delete from test_refused_events`.execute(database.db);
      expect(errors.length, `the failure of ${type} was logged`).toBe(logged + 1);
    }
  }

  async function count(table: string, column: string, value: string): Promise<number> {
    const row = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where(column, "=", value)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  const expectInternalError = (answer: { status: number; body: { code: string } }) =>
    expect(answer).toMatchObject({ status: 500, body: { code: "INTERNAL_ERROR" } });

  beforeAll(async () => {
    testDatabase = await backend.create();
    instance = await startInstance(domainOf(BLOG_YAML), testDatabase.url, {
      onEvent: (event) => {
        heard.push(event);
      },
      onError: (error) => errors.push(error),
    });
    database = await openDatabase(testDatabase.url);
    await installRefusal(database);
  });
  afterAll(async () => {
    await instance?.auth.close();
    await database?.close();
    await testDatabase?.drop();
  });

  it("setup: no administrator and setup still open", async () => {
    await refusing("setup", async () =>
      expectInternalError(await api().post("/api/user/setup", { email: "a@example.com", password: TEST_PASSWORD })),
    );
    expect((await api().get("/api/user/setup")).body).toEqual({ setupRequired: true });
    expect(await count("user", "email", "a@example.com")).toBe(0);
  });

  let admin: SignedIn;
  let user: SignedIn;

  it("register: no account", async () => {
    admin = await setUpAdmin(api());
    const register = () => api().post("/api/user/register", { email: "r@example.com", password: TEST_PASSWORD });
    await refusing("register", async () => expectInternalError(await register()));
    expect(await count("user", "email", "r@example.com")).toBe(0);
    expect((await register()).status).toBe(201);
  });

  it("login: no session", async () => {
    user = await signIn(api(), { email: "r@example.com" });
    const sessions = await count("domain_auth_sessions", "userId", user.id);
    await refusing("login.succeeded", async () =>
      expectInternalError(await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD })),
    );
    expect(await count("domain_auth_sessions", "userId", user.id)).toBe(sessions);
  });

  it("logout and revoking other sessions: the sessions stay live", async () => {
    const other = await signIn(api(), { email: user.email });
    await refusing("logout", async () => expectInternalError(await api().post("/api/user/logout", undefined, { token: user.token })));
    expect((await api().get("/api/user/me", { token: user.token })).status).toBe(200);
    await refusing("session.revoked", async () => expectInternalError(await api().delete("/api/user/sessions", { token: user.token })));
    expect((await api().get("/api/user/me", { token: other.token })).status).toBe(200);
  });

  it("a role or password change: nothing changed, tokens still good", async () => {
    await refusing("role.changed", async () =>
      expectInternalError(await api().patch(`/api/user/${user.id}`, { role: "Editor" }, { token: admin.token })),
    );
    const me = await api().get("/api/user/me", { token: user.token });
    expect(me.body.user.role).toBe("Reader");
    await refusing("password.changed", async () =>
      expectInternalError(
        await api().patch(`/api/user/${user.id}`, { password: "another password", currentPassword: TEST_PASSWORD }, { token: user.token }),
      ),
    );
    expect((await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it("turning TOTP on: it stays off", async () => {
    const started = await api().post("/api/user/mfa/totp", undefined, { token: user.token });
    const code = currentCode(instance.auth, started.body.secret);
    await refusing("mfa.enabled", async () =>
      expectInternalError(await api().post("/api/user/mfa/totp/confirm", { code }, { token: user.token })),
    );
    const login = await api().post("/api/user/login", { email: user.email, password: TEST_PASSWORD });
    expect(login.body.token).toEqual(expect.any(String));
  });

  it("deleting a user: the user stays", async () => {
    const doomed = await signUp(api(), { email: "d@example.com" });
    await refusing("user.deleted", async () => expectInternalError(await api().delete(`/api/user/${doomed.id}`, { token: admin.token })));
    expect(await count("user", "id", doomed.id)).toBe(1);
    expect((await api().get("/api/user/me", { token: doomed.token })).status).toBe(200);
  });

  it("hands onEvent only the events that committed", async () => {
    await settled(instance.auth);
    const stored = await database.db.selectFrom("domain_auth_events").select("id").execute();
    expect(heard.map((event) => event.id).sort()).toEqual(stored.map((row) => String(row.id)).sort());
  });
});
