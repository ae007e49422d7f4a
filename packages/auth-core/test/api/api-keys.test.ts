import { createHash } from "node:crypto";
import { addUser, type SignedIn, setUpAdmin, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { CompiledQuery, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogOperations, isServed } from "../../src/endpoints/catalog.js";
import type { Auth } from "../../src/index.js";
import { LOGIN_LIMITS } from "../../src/throttle/login-throttle.js";
import type { ApiClient } from "../support/client.js";
import { useClockedPair } from "../support/clocked.js";
import { settled } from "../support/events.js";

const KEYS = "/api/user/api-keys";

/** The keys table of an instance's database, read directly. */
function keyTable(auth: Auth) {
  const database = auth.tools.apiKeys?.store.database;
  if (!database) throw new Error("no API keys under auth.type none");
  return database.db;
}

/** Creates a key for `owner` (signed in with a session); the whole answer. */
async function createKey(api: ApiClient, owner: SignedIn, body: Record<string, unknown> = { name: "script" }) {
  const answer = await api.post(KEYS, body, { token: owner.token });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; key: string; name: string; scopes: string[] | null; createdAt: string; expiresAt: string | null };
}

async function expectKeyRefused(api: ApiClient, key: string): Promise<void> {
  const answer = await api.get("/api/user/me", { token: key });
  expect(answer.status).toBe(401);
  expect(answer.body.code).toBe("UNAUTHENTICATED");
  expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
}

describe.each(BACKENDS)("API keys on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  const api = () => pair.first.api;
  const other = () => pair.second.api;
  let admin: SignedIn;
  let editor: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(pair.first.api);
    editor = await addUser(pair.first.api, admin, { email: "editor@example.com", role: "Editor" });
  });

  describe("creation", () => {
    it("answers the key once, da_ and 32 random bytes base64url; stores only its SHA-256", async () => {
      const created = await createKey(api(), editor, { name: "  deploy bot ", scopes: ["post:read", "post:create", "post:read"] });
      expect(created.key).toMatch(/^da_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(created.key.slice(3), "base64url")).toHaveLength(32);
      expect(created).toMatchObject({ name: "deploy bot", scopes: ["post:read", "post:create"], expiresAt: null });
      expect(Object.keys(created).sort()).toEqual(["createdAt", "expiresAt", "id", "key", "name", "scopes"]);
      const rows = await keyTable(pair.first.auth).selectFrom("domain_auth_api_keys").selectAll().where("id", "=", created.id).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(created.key.slice(3));
      expect(rows[0]?.keyHash).toBe(createHash("sha256").update(created.key).digest("base64url"));
      const listed = await api().get(KEYS, { token: editor.token });
      expect(listed.status).toBe(200);
      const item = listed.body.items.find((each: { id: string }) => each.id === created.id);
      expect(item).toEqual({ ...created, key: undefined, lastUsedAt: null });
      expect(listed.text).not.toContain(created.key);
    });

    it("refuses scopes the domain does not have, a past expiry, an empty name and a transport", async () => {
      const refused = [
        { name: "x", scopes: ["comment:read"] },
        { name: "x", scopes: ["post:publish"] },
        { name: "x", expiresAt: new Date((pair.first.auth.tools.sessions?.now() ?? Number.NaN) - 60_000).toISOString() },
        { name: "x", expiresAt: "tomorrow" },
        { name: "   " },
        { name: "line\nbreak" },
        { name: "x", transport: "cookie" },
      ];
      for (const body of refused) {
        const answer = await api().post(KEYS, body, { token: editor.token });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body.code).toBe("INVALID_BODY");
      }
    });

    it("needs a session: no token is 401, an API key is 403", async () => {
      expect((await api().post(KEYS, { name: "x" })).status).toBe(401);
      const { key } = await createKey(api(), editor);
      const answer = await api().post(KEYS, { name: "another" }, { token: key });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("FORBIDDEN");
      expect(answer.body.message).toMatch(/API key/);
    });
  });

  describe("use", () => {
    it("is the key's user for me, on every instance, whatever its scopes", async () => {
      const { key } = await createKey(api(), editor, { name: "narrow", scopes: [] });
      for (const client of [api(), other()]) {
        const answer = await client.get("/api/user/me", { token: key });
        expect(answer.status).toBe(200);
        expect(answer.body.user).toMatchObject({ id: editor.id, email: editor.email, role: "Editor" });
      }
      const lower = await api().get("/api/user/me", { headers: { authorization: `bearer ${key}` } });
      expect(lower.status).toBe(200);
    });

    it("performs the entity operations within its scopes and the user's role, 403 outside them", async () => {
      const { key } = await createKey(api(), editor, { name: "poster", scopes: ["post:create", "post:read"] });
      const created = await api().post("/api/post", { title: "By key" }, { token: key });
      expect(created.status).toBe(201);
      expect(created.body.item.author).toBe(editor.id);
      expect((await api().get(`/api/post/${created.body.item.id}`, { token: key })).status).toBe(200);
      const update = await api().patch(`/api/post/${created.body.item.id}`, { title: "Changed" }, { token: key });
      expect(update.status).toBe(403);
      expect(update.body.code).toBe("FORBIDDEN");
      expect(update.body.message).toMatch(/post:update/);
      expect((await api().get(`/api/user/${editor.id}`, { token: key })).status).toBe(403);
      // Within the scopes, still no more than the role: an Editor may not delete posts.
      const broad = await createKey(api(), editor, { name: "broad" });
      expect((await api().patch(`/api/post/${created.body.item.id}`, { title: "Changed" }, { token: broad.key })).status).toBe(200);
      expect((await api().delete(`/api/post/${created.body.item.id}`, { token: broad.key })).status).toBe(403);
      expect((await api().get(`/api/post/${created.body.item.id}`, { token: key })).body.item.title).toBe("Changed");
    });

    it("follows the user's current role", async () => {
      const writer = await addUser(api(), admin, { email: "writer@example.com", role: "Editor" });
      const { key } = await createKey(api(), writer);
      expect((await api().post("/api/post", { title: "Before" }, { token: key })).status).toBe(201);
      expect((await api().patch(`/api/user/${writer.id}`, { role: "Reader" }, { token: admin.token })).status).toBe(200);
      expect((await api().post("/api/post", { title: "After" }, { token: key })).status).toBe(403);
      expect((await api().get("/api/user/me", { token: key })).body.user.role).toBe("Reader");
    });

    it("is refused (403) by every auth operation but me, before the key is looked up", async () => {
      const { key } = await createKey(api(), admin);
      const flags = pair.first.auth.endpoints;
      if (!flags) throw new Error("the blog has auth");
      const served = catalogOperations().filter(({ entry }) => isServed(entry, flags));
      expect(served.length).toBeGreaterThan(10);
      for (const { entry, method, operation } of served) {
        const path = `/api/user/${entry.path.replace(/\{[^}]+\}/g, "some-id")}`;
        const answer = await api().call(method, path, method === "POST" ? {} : undefined, { token: key });
        if (operation.apiKey) expect(answer.status, operation.operationId).toBe(200);
        else
          expect({ id: operation.operationId, status: answer.status, code: answer.body?.code }).toEqual({
            id: operation.operationId,
            status: 403,
            code: "FORBIDDEN",
          });
      }
      // Not even a key that does not exist gets further.
      expect((await api().get("/api/user/sessions", { token: "da_unknown" })).status).toBe(403);
    });

    it("never changes a password, an email or a role (anyone's), an administrator's key included", async () => {
      const { key } = await createKey(api(), admin);
      const reader = await signUp(api(), { email: "reader-of-keys@example.com" });
      const refused = [
        [admin.id, { password: "another password", currentPassword: admin.password }],
        [admin.id, { email: "new-admin@example.com", currentPassword: admin.password }],
        [admin.id, { role: "Editor" }],
        [reader.id, { password: "another password" }],
        [reader.id, { email: "taken-over@example.com" }],
        [reader.id, { role: "Editor" }],
      ] as const;
      for (const [id, body] of refused) {
        const answer = await api().patch(`/api/user/${id}`, body, { token: key });
        expect(answer.status, JSON.stringify(body)).toBe(403);
        expect(answer.body.message).toMatch(/API key/);
      }
      // Another user's other fields, as the setup role may.
      expect((await api().patch(`/api/user/${reader.id}`, { name: "Ed" }, { token: key })).status).toBe(200);
      expect((await api().get("/api/user/me", { token: admin.token })).body.user.role).toBe("Admin");
    });

    it("is no one to the pages and the project's own server code (currentUser)", async () => {
      const { key } = await createKey(api(), editor);
      expect(await pair.first.auth.currentUser(new Headers({ authorization: `Bearer ${key}` }))).toBeNull();
      expect(await pair.first.auth.currentUser(new Headers({ authorization: `Bearer ${editor.token}` }))).toMatchObject({ id: editor.id });
    });

    it("is never read from the access cookie", async () => {
      const { key } = await createKey(api(), editor);
      const answer = await api().get("/api/user/me", { headers: { cookie: `domain-auth-access=${key}` } });
      expect(answer.status).toBe(401);
    });

    it("writes lastUsedAt at most once a minute", async () => {
      const { id, key } = await createKey(api(), editor, { name: "clock" });
      const lastUsed = async () => {
        // The use is written after the answer: wait for both instances' writes, not for luck.
        await Promise.all([pair.first.auth.tools.apiKeys?.settle(), pair.second.auth.tools.apiKeys?.settle()]);
        const listed = await api().get(KEYS, { token: editor.token });
        return listed.body.items.find((each: { id: string }) => each.id === id).lastUsedAt as string | null;
      };
      expect(await lastUsed()).toBeNull();
      await api().get("/api/user/me", { token: key });
      const first = await lastUsed();
      expect(first).not.toBeNull();
      pair.advance(30);
      await api().get("/api/user/me", { token: key });
      expect(await lastUsed()).toBe(first);
      pair.advance(31);
      await other().get("/api/user/me", { token: key });
      const later = await lastUsed();
      expect(Date.parse(later ?? "") - Date.parse(first ?? "")).toBe(61_000);
    });
  });

  describe("ending", () => {
    it("revokes a key at once, on every instance, with its events; 404 for someone else's", async () => {
      const created = await createKey(api(), editor, { name: "short-lived" });
      const stranger = await signUp(api(), { email: "stranger@example.com" });
      expect((await api().delete(`${KEYS}/${created.id}`, { token: stranger.token })).status).toBe(404);
      expect((await api().delete(`${KEYS}/${created.id}`, { token: created.key })).status).toBe(403);
      expect((await other().get("/api/user/me", { token: created.key })).status).toBe(200);
      expect((await api().delete(`${KEYS}/${created.id}`, { token: editor.token })).status).toBe(204);
      await expectKeyRefused(other(), created.key);
      expect((await other().get("/api/post", { token: created.key })).status).toBe(401);
      expect((await api().delete(`${KEYS}/${created.id}`, { token: editor.token })).status).toBe(404);
      await settled(pair.first.auth);
      const events = await api().get(`/api/user/events?userId=${editor.id}`, { token: admin.token });
      const types = events.body.items.filter((event: { detail: { keyId?: string } }) => event.detail.keyId === created.id);
      expect(types.map((event: { type: string }) => event.type)).toEqual(["api_key.revoked", "api_key.created"]);
      expect(types[0]).toMatchObject({ userId: editor.id, actorId: editor.id, detail: { name: "short-lived" } });
      expect(events.text).not.toContain(created.key);
    });

    it("lets the setup role list and revoke anyone's keys; no one else", async () => {
      const created = await createKey(api(), editor, { name: "audited" });
      const listed = await api().get(`${KEYS}?userId=${editor.id}`, { token: admin.token });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(created.id);
      expect((await api().get(`${KEYS}?userId=${admin.id}`, { token: editor.token })).status).toBe(403);
      expect((await api().get(`${KEYS}?userId=no-such-user`, { token: admin.token })).status).toBe(404);
      expect((await api().delete(`${KEYS}/${created.id}`, { token: admin.token })).status).toBe(204);
      await expectKeyRefused(api(), created.key);
      await settled(pair.first.auth);
      const events = await api().get(`/api/user/events?userId=${editor.id}&type=api_key.revoked`, { token: admin.token });
      expect(events.body.items[0]).toMatchObject({ userId: editor.id, actorId: admin.id, detail: { keyId: created.id } });
    });

    it("dies with its user", async () => {
      const leaving = await signUp(api(), { email: "leaving@example.com" });
      const { key } = await createKey(api(), leaving);
      expect((await api().get("/api/user/me", { token: key })).status).toBe(200);
      expect((await api().delete(`/api/user/${leaving.id}`, { token: admin.token })).status).toBe(204);
      await expectKeyRefused(other(), key);
      const rows = await keyTable(pair.first.auth)
        .selectFrom("domain_auth_api_keys")
        .select("id")
        .where("userId", "=", leaving.id)
        .execute();
      expect(rows).toEqual([]);
    });

    it("is checked by one read that finds the key by the unique index of its hash, joined with its user", async () => {
      const auth = pair.first.auth;
      const store = auth.tools.apiKeys?.store;
      const entity = auth.model.auth?.entity;
      if (!store || !entity) throw new Error("the blog has auth");
      const text = store.checkSqlOf(entity);
      expect(text).toMatch(/join/i);
      expect(text).not.toMatch(/passwordHash/);
      const db = keyTable(auth);
      // Asked to avoid full scans, the planner must have an index for the hash (PostgreSQL plans a tiny table as a scan otherwise).
      const plan = await db.connection().execute(async (connection) => {
        if (store.database.dialect === "postgres") await sql`set enable_seqscan = off`.execute(connection);
        const explain = store.database.dialect === "sqlite" ? "explain query plan " : "explain ";
        const { rows } = await connection.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${explain}${text}`, ["some-hash"]));
        if (store.database.dialect === "postgres") await sql`reset enable_seqscan`.execute(connection);
        return rows.map((row) => String(row.detail ?? row["QUERY PLAN"])).join("\n");
      });
      expect(plan, plan).toMatch(
        /USING INDEX sqlite_autoindex_domain_auth_api_keys_\d+ \(keyHash=\?\)|Index Scan using "domain_auth_api_keys_keyHash_key"/,
      );
      expect(plan, plan).not.toMatch(/SCAN k\b(?! USING)|Seq Scan on domain_auth_api_keys/);
    });

    it("counts wrong keys toward the address's failed logins; a valid key from a locked address still works", async () => {
      const { key } = await createKey(api(), editor, { name: "from a locked address" });
      const from = { "x-domain-auth-peer": "203.0.113.77" };
      for (let attempt = 0; attempt < LOGIN_LIMITS.failuresPerAddress; attempt++) {
        const answer = await api().get("/api/user/me", { token: `da_wrong${attempt}`, headers: from });
        expect(answer.status).toBe(401);
      }
      const login = await api().post("/api/user/login", { email: editor.email, password: editor.password }, { headers: from });
      expect(login.status).toBe(429);
      expect((await api().get("/api/user/me", { token: key, headers: from })).status).toBe(200);
    });

    it("stops working when it expires (last: the clock moves past every token)", async () => {
      // An hour on the instances' clock (which the suite moves), not the wall clock's.
      const expiresAt = new Date((pair.first.auth.tools.sessions?.now() ?? Number.NaN) + 3600_000).toISOString();
      const { key, expiresAt: answered } = await createKey(api(), editor, { name: "hour", expiresAt });
      expect(answered).toBe(expiresAt);
      expect((await api().get("/api/user/me", { token: key })).status).toBe(200);
      pair.advance(3601);
      await expectKeyRefused(api(), key);
      await expectKeyRefused(other(), key);
    });
  });
});
