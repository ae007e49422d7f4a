import { addUser, type SignedIn, setUpAdmin, signIn, signUp, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client.js";
import { useClockedPair } from "../support/clocked.js";
import { useInstance } from "../support/instance.js";

const sidOf = (token: string) => String(decodeJwt(token).sid);

async function expectTokenRefused(api: ApiClient, token: string): Promise<void> {
  const answer = await api.get("/api/user/me", { token });
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
}

async function expectRefreshRefused(api: ApiClient, refreshToken: string): Promise<void> {
  const answer = await api.post("/api/user/refresh", { refreshToken });
  expect(answer.status).toBe(401);
  expect(answer.body.code).toBe("INVALID_REFRESH_TOKEN");
}

describe.each(BACKENDS)("sessions on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(pair.first.api);
  });
  const api = () => pair.first.api;
  const other = () => pair.second.api;

  describe("logout", () => {
    it("revokes the caller's session at once, on every instance; other sessions stay", async () => {
      const user = await signUp(api(), { email: "logout@example.com" });
      const laptop = await signIn(api(), { email: "logout@example.com" });
      expect((await other().get("/api/user/me", { token: user.token })).status).toBe(200);
      const answer = await api().post("/api/user/logout", undefined, { token: user.token });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe("");
      await expectTokenRefused(api(), user.token);
      await expectTokenRefused(other(), user.token);
      expect((await other().get("/api/post", { token: user.token })).status).toBe(401);
      await expectRefreshRefused(other(), user.refreshToken);
      expect((await other().get("/api/user/me", { token: laptop.token })).status).toBe(200);
      // Once revoked, the token cannot log out again.
      expect((await api().post("/api/user/logout", undefined, { token: user.token })).status).toBe(401);
    });

    it("ignores any body, even one that is not JSON", async () => {
      const user = await signIn(api(), { email: admin.email, password: admin.password });
      const answer = await api().post("/api/user/logout", undefined, {
        token: user.token,
        raw: "not json",
        headers: { "content-type": "text/plain" },
      });
      expect(answer.status).toBe(204);
      await expectTokenRefused(other(), user.token);
    });

    it("needs a bearer token", async () => {
      const answer = await api().post("/api/user/logout");
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    });
  });

  describe("GET sessions", () => {
    it("lists the caller's live sessions, newest first, the current one marked", async () => {
      const first = await signUp(api(), { email: "devices@example.com" });
      pair.advance(1);
      const phone = await api().post(
        "/api/user/login",
        { email: "devices@example.com", password: TEST_PASSWORD },
        { headers: { "user-agent": `Phone ${"x".repeat(400)}` } },
      );
      pair.advance(1);
      const ended = await signIn(api(), { email: "devices@example.com" });
      await api().post("/api/user/logout", undefined, { token: ended.token });
      pair.advance(1);
      const laptop = await api().post(
        "/api/user/login",
        { email: "devices@example.com", password: TEST_PASSWORD },
        { headers: { "user-agent": "Laptop" } },
      );
      const answer = await other().get("/api/user/sessions", { token: phone.body.token });
      expect(answer.status).toBe(200);
      expect(answer.body.items.map((item: { id: string }) => item.id)).toEqual([
        sidOf(laptop.body.token),
        sidOf(phone.body.token),
        sidOf(first.token),
      ]);
      const [newest, current] = answer.body.items;
      expect(newest).toEqual({
        id: sidOf(laptop.body.token),
        createdAt: expect.any(String),
        refreshedAt: expect.any(String),
        expiresAt: expect.any(String),
        userAgent: "Laptop",
        current: false,
      });
      expect(current.current).toBe(true);
      expect(current.userAgent).toHaveLength(256);
      expect(Date.parse(current.expiresAt) - Date.parse(current.createdAt)).toBe(2592000 * 1000);
      expect(JSON.stringify(answer.body)).not.toMatch(/hash|refreshToken|address/i);
    });

    it("is never an item of the auth entity", async () => {
      const answer = await api().get("/api/user/sessions", { token: admin.token });
      expect(answer.status).toBe(200);
      expect(answer.body.items.every((item: { current: boolean }) => typeof item.current === "boolean")).toBe(true);
      expect((await api().get("/api/user/sessions")).status).toBe(401);
    });
  });

  describe("DELETE sessions/<id>", () => {
    it("revokes one of the caller's sessions; 404 for any id that is not one of them", async () => {
      const user = await signUp(api(), { email: "one@example.com" });
      const tablet = await signIn(api(), { email: "one@example.com" });
      const stranger = await signUp(api(), { email: "stranger@example.com" });
      expect((await api().delete(`/api/user/sessions/${sidOf(tablet.token)}`, { token: user.token })).status).toBe(204);
      await expectTokenRefused(other(), tablet.token);
      await expectRefreshRefused(other(), tablet.refreshToken);
      for (const id of [sidOf(tablet.token), sidOf(stranger.token), "nope", "%00"]) {
        const answer = await api().delete(`/api/user/sessions/${id}`, { token: user.token });
        expect(answer.status, id).toBe(404);
        expect(answer.body.code).toBe("NOT_FOUND");
      }
      expect((await api().get("/api/user/me", { token: stranger.token })).status).toBe(200);
      // Revoking one's own current session is a logout.
      expect((await api().delete(`/api/user/sessions/${sidOf(user.token)}`, { token: user.token })).status).toBe(204);
      await expectTokenRefused(api(), user.token);
    });

    it("answers 405 for another method, and 401 without a token", async () => {
      const answer = await api().get(`/api/user/sessions/${sidOf(admin.token)}`, { token: admin.token });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("DELETE");
      expect((await api().delete(`/api/user/sessions/${sidOf(admin.token)}`)).status).toBe(401);
      expect((await api().delete("/api/user/sessions/a/b", { token: admin.token })).status).toBe(404);
    });
  });

  describe("DELETE sessions", () => {
    it("revokes every other session of the caller; the current one stays", async () => {
      const user = await signUp(api(), { email: "others@example.com" });
      const second = await signIn(api(), { email: "others@example.com" });
      const third = await signIn(other(), { email: "others@example.com" });
      expect((await api().delete("/api/user/sessions", { token: second.token })).status).toBe(204);
      await expectTokenRefused(other(), user.token);
      await expectTokenRefused(other(), third.token);
      await expectRefreshRefused(other(), third.refreshToken);
      expect((await other().get("/api/user/me", { token: second.token })).status).toBe(200);
      const list = await other().get("/api/user/sessions", { token: second.token });
      expect(list.body.items).toEqual([expect.objectContaining({ id: sidOf(second.token), current: true })]);
    });

    it("with ?userId=, signs that user out everywhere: the setup role only, 404 for an unknown user", async () => {
      const editor = await addUser(api(), admin, { email: "editor@example.com", role: "Editor" });
      const target = await signUp(api(), { email: "target@example.com" });
      const targetElsewhere = await signIn(other(), { email: "target@example.com" });
      const forbidden = await api().delete(`/api/user/sessions?userId=${target.id}`, { token: editor.token });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe("FORBIDDEN");
      // 403 before 404: a non-administrator learns nothing about which users exist.
      expect((await api().delete("/api/user/sessions?userId=nobody", { token: editor.token })).status).toBe(403);
      expect((await api().get("/api/user/me", { token: target.token })).status).toBe(200);
      const unknown = await api().delete("/api/user/sessions?userId=nobody", { token: admin.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe("NOT_FOUND");
      expect((await api().delete(`/api/user/sessions?userId=${target.id}`, { token: admin.token })).status).toBe(204);
      await expectTokenRefused(other(), target.token);
      await expectTokenRefused(other(), targetElsewhere.token);
      await expectRefreshRefused(other(), targetElsewhere.refreshToken);
      expect((await api().get("/api/user/me", { token: admin.token })).status).toBe(200);
      expect((await api().get("/api/user/me", { token: editor.token })).status).toBe(200);
    });
  });

  describe("revocation by account changes", () => {
    it("an own password change keeps the session that made it, with fresh tokens; every other session is revoked", async () => {
      const user = await signUp(api(), { email: "pw@example.com" });
      const elsewhere = await signIn(other(), { email: "pw@example.com" });
      const change = await api().patch(
        `/api/user/${user.id}`,
        { password: "a brand new password", currentPassword: TEST_PASSWORD },
        { token: user.token },
      );
      expect(change.status).toBe(200);
      expect(change.body).toMatchObject({
        token: expect.any(String),
        refreshToken: expect.any(String),
        refreshExpiresIn: 2592000,
        item: { id: user.id },
      });
      expect(sidOf(change.body.token)).toBe(sidOf(user.token));
      await expectTokenRefused(other(), user.token);
      await expectTokenRefused(other(), elsewhere.token);
      await expectRefreshRefused(other(), elsewhere.refreshToken);
      expect((await other().get("/api/user/me", { token: change.body.token })).status).toBe(200);
      expect((await other().post("/api/user/refresh", { refreshToken: change.body.refreshToken })).status).toBe(200);
    });

    it("an own email change does the same", async () => {
      const user = await signUp(api(), { email: "mail@example.com" });
      const elsewhere = await signIn(other(), { email: "mail@example.com" });
      const change = await api().patch(
        `/api/user/${user.id}`,
        { email: "mail2@example.com", currentPassword: TEST_PASSWORD },
        { token: user.token },
      );
      expect(change.status).toBe(200);
      expect(change.body.refreshToken).toEqual(expect.any(String));
      await expectTokenRefused(other(), elsewhere.token);
      await expectRefreshRefused(other(), elsewhere.refreshToken);
      const refreshed = await other().post("/api/user/refresh", { refreshToken: change.body.refreshToken });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.user.email).toBe("mail2@example.com");
    });

    it.each([
      ["a password change by an administrator", { password: "set by the admin" }],
      ["an email change by an administrator", { email: "changed-by-admin@example.com" }],
      ["a role change", { role: "Editor" }],
    ])("%s revokes every session of the user", async (_case, values) => {
      const email = `changed-${Object.keys(values)[0]}@example.com`;
      const user = await signUp(api(), { email });
      const elsewhere = await signIn(other(), { email });
      const change = await api().patch(`/api/user/${user.id}`, values, { token: admin.token });
      expect(change.status).toBe(200);
      expect(change.body.token).toBeUndefined();
      for (const signedIn of [user, elsewhere]) {
        await expectTokenRefused(other(), signedIn.token);
        await expectRefreshRefused(other(), signedIn.refreshToken);
      }
      expect((await api().get("/api/user/me", { token: admin.token })).status).toBe(200);
    });

    it("a change of name revokes nothing", async () => {
      const user = await signUp(api(), { email: "rename@example.com" });
      expect((await api().patch(`/api/user/${user.id}`, { name: "New" }, { token: admin.token })).status).toBe(200);
      expect((await other().get("/api/user/me", { token: user.token })).status).toBe(200);
    });

    it("deleting the user revokes every session", async () => {
      const user = await signUp(api(), { email: "delete-me@example.com" });
      const elsewhere = await signIn(other(), { email: "delete-me@example.com" });
      expect((await api().delete(`/api/user/${user.id}`, { token: admin.token })).status).toBe(204);
      for (const signedIn of [user, elsewhere]) {
        await expectTokenRefused(other(), signedIn.token);
        await expectRefreshRefused(other(), signedIn.refreshToken);
      }
    });
  });

  describe("order of checks", () => {
    it("method, then a bad token, then the body", async () => {
      const wrongMethod = await api().get("/api/user/logout");
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get("allow")).toBe("POST");
      expect((await api().call("PUT", "/api/user/sessions")).headers.get("allow")).toBe("GET, DELETE, HEAD");
      expect((await api().get("/api/user/refresh")).status).toBe(405);
      // A refresh needs no bearer token, but a bad one is never anonymous.
      const badBearer = await api().post("/api/user/refresh", { refreshToken: admin.refreshToken }, { token: "not-a-token" });
      expect(badBearer.status).toBe(401);
      expect(badBearer.body.code).toBe("UNAUTHENTICATED");
      expect((await api().post("/api/user/refresh", undefined, { token: "not-a-token", raw: "x" })).status).toBe(401);
      expect((await api().post("/api/user/refresh", undefined, { raw: "{}" })).status).toBe(415);
    });
  });
});

describe("session endpoints switched off", () => {
  const yaml = BLOG_YAML.replace(
    "endpoints: { login: true, register: true, me: true, setup: true }",
    "endpoints: { logout: false, refresh: false, sessions: false }",
  );
  const instance = useInstance(() => createSqliteDatabase(), yaml);
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
  });

  it("answer 404 for every method, and are never taken for record ids", async () => {
    for (const [method, path] of [
      ["POST", "/api/user/logout"],
      ["GET", "/api/user/logout"],
      ["POST", "/api/user/refresh"],
      ["GET", "/api/user/sessions"],
      ["DELETE", "/api/user/sessions"],
      ["DELETE", `/api/user/sessions/${sidOf(admin.token)}`],
    ] as const) {
      const answer = await instance.api.call(method, path, undefined, { token: admin.token });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe("NOT_FOUND");
    }
    expect((await instance.api.get("/api/user/me", { token: admin.token })).status).toBe(200);
  });
});

describe("under auth.type none", () => {
  const yaml = "name: open\nentities:\n  Note:\n    fields:\n      text: string\nauth:\n  type: none\n";
  const instance = useInstance(() => createSqliteDatabase(), yaml);

  it("no session endpoint exists", async () => {
    for (const path of ["/api/note/sessions", "/api/note/logout", "/api/note/refresh", "/api/note/sessions/x"]) {
      expect((await instance.api.post(path, {})).status, path).toBe(404);
    }
  });
});
