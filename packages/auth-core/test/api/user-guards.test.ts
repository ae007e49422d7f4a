import { addUser, type SignedIn, setUpAdmin, signIn, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { domainOf } from "@domain-auth/test-support/domains";
import { findLeaks } from "@domain-auth/test-support/leaks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, apiClient, clientOf } from "../support/client.js";
import { startInstance, type TestInstance, useInstance } from "../support/instance.js";

/** The user entity has no permissions block: the guarded defaults apply. */
const GUARDED_YAML = `name: club
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Member }
auth:
  type: jwt
  roles: [Admin, Member]
`;

/** Members may update and delete any user, and anyone may create one: the field guards still apply. */
const OPEN_USERS_YAML = `name: club
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string
      role: { type: string, default: Member }
    permissions:
      create: ["*"]
      read: ["@Authenticated"]
      update: [Admin, Member]
      delete: [Admin, Member]
auth:
  type: jwt
  roles: [Admin, Member]
`;

/** A client that fails the test as soon as any response carries a password, a hash or an internal column. */
function leakCheckingClient(instance: TestInstance): ApiClient {
  const inner = apiClient(instance.auth);
  return clientOf(async (method, path, body, options) => {
    const response = await inner.call(method, path, body, options);
    expect(findLeaks(response)).toEqual([]);
    return response;
  });
}

async function storedHashOf(instance: TestInstance, id: string): Promise<string> {
  const entity = instance.auth.model.entities.find((candidate) => candidate.isAuthEntity);
  if (!entity) throw new Error("no auth entity");
  const record = await instance.auth.tools.store.find(entity, id);
  return record?.passwordHash as string;
}

describe.each(BACKENDS)("auth entity guarded by default on $name", (backend) => {
  const instance = useInstance(backend.create, GUARDED_YAML);
  let api: ApiClient;
  let admin: SignedIn;
  let member: SignedIn;
  let other: SignedIn;
  let counter = 0;
  const freshMember = () => addUser(api, admin, { email: `member${++counter}@example.com` });

  beforeAll(async () => {
    api = leakCheckingClient(instance);
    admin = await setUpAdmin(api);
    member = await addUser(api, admin, { email: "member@example.com" });
    other = await addUser(api, admin, { email: "other@example.com" });
    expect(member.role).toBe("Member");
  });

  it("lists only the member itself, and every user to the administrator", async () => {
    const own = await api.get("/api/user", { token: member.token });
    expect(own.status).toBe(200);
    expect(own.body.total).toBe(1);
    expect(own.body.items.map((item: { id: string }) => item.id)).toEqual([member.id]);
    const all = await api.get("/api/user?limit=100", { token: admin.token });
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    expect((await api.get("/api/user")).status).toBe(401);
  });

  it("does not let a member read, change or delete another user, or create users", async () => {
    const target = `/api/user/${other.id}`;
    for (const result of [
      await api.get(target, { token: member.token }),
      await api.patch(target, { name: "Hacked" }, { token: member.token }),
      await api.patch(target, { password: "new password 1" }, { token: member.token }),
      await api.patch(`/api/user/${admin.id}`, { password: "new password 1" }, { token: member.token }),
      await api.delete(target, { token: member.token }),
      await api.delete(`/api/user/${member.id}`, { token: member.token }),
      await api.post("/api/user", { email: "new@example.com", password: TEST_PASSWORD }, { token: member.token }),
    ]) {
      expect(result.status, result.text).toBe(403);
      expect(result.body.code).toBe("FORBIDDEN");
    }
    expect((await api.get(target, { token: admin.token })).body.item.name).toBeNull();
    expect((await api.post("/api/user", { email: "anon@example.com", password: TEST_PASSWORD })).status).toBe(401);
    await signIn(api, admin);
  });

  it("lets a member read and change its own profile", async () => {
    const user = await freshMember();
    expect((await api.get(`/api/user/${user.id}`, { token: user.token })).body.item.email).toBe(user.email);
    const renamed = await api.patch(`/api/user/${user.id}`, { name: "Me" }, { token: user.token });
    expect(renamed.status).toBe(200);
    expect(renamed.body.item.name).toBe("Me");
    expect(renamed.body.token).toBeUndefined();
    expect((await api.get("/api/user/me", { token: user.token })).status).toBe(200);
  });

  it("lets the administrator read, change, create and delete users", async () => {
    const user = await freshMember();
    expect((await api.get(`/api/user/${user.id}`, { token: admin.token })).status).toBe(200);
    expect((await api.patch(`/api/user/${user.id}`, { name: "By admin" }, { token: admin.token })).body.item.name).toBe("By admin");
    const created = await api.post("/api/user", { email: `made${++counter}@example.com`, password: TEST_PASSWORD }, { token: admin.token });
    expect(created.status, created.text).toBe(201);
    expect((await api.delete(`/api/user/${user.id}`, { token: admin.token })).status).toBe(204);
    expect((await api.get("/api/user/me", { token: user.token })).status).toBe(401);
  });

  it("validates a role sent by the administrator with the rest of the body (400 before 404)", async () => {
    const user = await freshMember();
    const unknownRole = await api.patch(`/api/user/${user.id}`, { role: "Emperor" }, { token: admin.token });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.issues.map((issue: { path: string[] }) => issue.path[0])).toEqual(["role"]);
    expect((await api.patch("/api/user/00000000-0000-4000-8000-000000000000", { role: "Emperor" }, { token: admin.token })).status).toBe(
      400,
    );
    expect((await api.patch("/api/user/00000000-0000-4000-8000-000000000000", { role: "Member" }, { token: admin.token })).status).toBe(
      404,
    );
    const promoted = await api.patch(`/api/user/${user.id}`, { role: "Admin" }, { token: admin.token });
    expect(promoted.body.item.role).toBe("Admin");
    expect((await api.get("/api/user/me", { token: user.token })).status).toBe(401);
    const roleless = await api.patch(`/api/user/${user.id}`, { role: null }, { token: admin.token });
    expect(roleless.status).toBe(200);
    expect(roleless.body.item.role).toBeNull();
  });

  it("retires tokens carrying the old email when the email changes; the user gets a fresh one", async () => {
    const user = await freshMember();
    const changed = await api.patch(
      `/api/user/${user.id}`,
      { email: ` New.${user.email.toUpperCase()}`, currentPassword: TEST_PASSWORD },
      { token: user.token },
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.item.email).toBe(`new.${user.email}`);
    expect((await api.get("/api/user/me", { token: user.token })).status).toBe(401);
    const claims = JSON.parse(Buffer.from(changed.body.token.split(".")[1], "base64url").toString());
    expect(claims.email).toBe(`new.${user.email}`);
    expect((await api.get("/api/user/me", { token: changed.body.token })).status).toBe(200);
    const other = await freshMember();
    const byAdmin = await api.patch(`/api/user/${other.id}`, { email: `moved.${other.email}` }, { token: admin.token });
    expect(byAdmin.body.token).toBeUndefined();
    expect((await api.get("/api/user/me", { token: other.token })).status).toBe(401);
  });

  it("needs currentPassword for an own email change, so a stolen token alone cannot take the account over", async () => {
    const user = await freshMember();
    const path = `/api/user/${user.id}`;
    const stolen = await api.patch(path, { email: `attacker${++counter}@evil.io` }, { token: user.token });
    expect(stolen.status).toBe(403);
    expect(stolen.body.code).toBe("FORBIDDEN");
    expect(stolen.body.token).toBeUndefined();
    const guessed = await api.patch(
      path,
      { email: `attacker${++counter}@evil.io`, currentPassword: "a wrong guess" },
      { token: user.token },
    );
    expect(guessed.status).toBe(403);
    // Nothing changed: the owner keeps the account, the token and the password.
    expect((await api.get("/api/user/me", { token: user.token })).body.user.email).toBe(user.email);
    await signIn(api, user);
    // Sending the email it already has is no change and needs nothing.
    expect((await api.patch(path, { email: user.email, name: "Same" }, { token: user.token })).status).toBe(200);
  });

  describe("own password change", () => {
    it("needs currentPassword (403 without it or with a wrong one), then returns a fresh token and retires the old one", async () => {
      const user = await freshMember();
      const path = `/api/user/${user.id}`;
      const without = await api.patch(path, { password: "brand new password" }, { token: user.token });
      expect(without.status).toBe(403);
      expect(without.body.code).toBe("FORBIDDEN");
      const wrong = await api.patch(path, { password: "brand new password", currentPassword: "not it at all" }, { token: user.token });
      expect(wrong.status).toBe(403);
      expect((await api.get("/api/user/me", { token: user.token })).status).toBe(200);

      const changed = await api.patch(path, { password: "brand new password", currentPassword: TEST_PASSWORD }, { token: user.token });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.item.id).toBe(user.id);
      expect(typeof changed.body.token).toBe("string");
      expect(changed.body.tokenType).toBe("Bearer");
      expect(changed.body.expiresIn).toBeGreaterThan(0);
      expect(changed.headers.get("cache-control")).toContain("no-store");

      const old = await api.get("/api/user/me", { token: user.token });
      expect(old.status).toBe(401);
      expect(old.body.code).toBe("UNAUTHENTICATED");
      expect((await api.get("/api/user/me", { token: changed.body.token })).status).toBe(200);
      expect((await api.post("/api/user/login", { email: user.email, password: TEST_PASSWORD })).status).toBe(401);
      await signIn(api, { email: user.email, password: "brand new password" });
    });

    it("validates the new password like register and stores only a bcrypt hash", async () => {
      const user = await freshMember();
      const path = `/api/user/${user.id}`;
      for (const password of ["short", "x".repeat(73), "é".repeat(37), "with\u0000nul!", 12345678, null]) {
        const result = await api.patch(path, { password, currentPassword: TEST_PASSWORD }, { token: user.token });
        expect(result.status, String(password)).toBe(400);
        expect(result.body.issues.map((issue: { path: string[] }) => issue.path[0])).toContain("password");
      }
      const accepted = await api.patch(path, { password: "ü1ä2ö3ß4".repeat(6), currentPassword: TEST_PASSWORD }, { token: user.token });
      expect(accepted.status, accepted.text).toBe(200);
      const hash = await storedHashOf(instance, user.id);
      expect(hash).toMatch(/^\$2[aby]\$/);
      expect(hash).not.toContain("ü");
      await signIn(api, { email: user.email, password: "ü1ä2ö3ß4".repeat(6) });
    });

    it("lets the administrator set another user's password without currentPassword, retiring that user's tokens", async () => {
      const user = await freshMember();
      const result = await api.patch(`/api/user/${user.id}`, { password: "set by the admin" }, { token: admin.token });
      expect(result.status, result.text).toBe(200);
      expect(result.body.token).toBeUndefined();
      expect((await api.get("/api/user/me", { token: user.token })).status).toBe(401);
      expect((await api.get("/api/user/me", { token: admin.token })).status).toBe(200);
      await signIn(api, { email: user.email, password: "set by the admin" });
    });

    it("also asks the administrator for currentPassword when changing its own password", async () => {
      const second = await addUser(api, admin, { email: `admin${++counter}@example.com`, role: "Admin" });
      const path = `/api/user/${second.id}`;
      expect((await api.patch(path, { password: "admin new password" }, { token: second.token })).status).toBe(403);
      const changed = await api.patch(path, { password: "admin new password", currentPassword: TEST_PASSWORD }, { token: second.token });
      expect(changed.status).toBe(200);
      expect((await api.delete(path, { token: changed.body.token })).status).toBe(204);
    });
  });

  describe("email", () => {
    it("is normalized and stays unique (409 EMAIL_TAKEN), also through PATCH and POST", async () => {
      const user = await freshMember();
      const path = `/api/user/${user.id}`;
      const changed = await api.patch(path, { email: "  New.Address@Example.COM ", currentPassword: TEST_PASSWORD }, { token: user.token });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.item.email).toBe("new.address@example.com");
      const token = changed.body.token as string;
      const taken = await api.patch(path, { email: "OTHER@example.com", currentPassword: TEST_PASSWORD }, { token });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe("EMAIL_TAKEN");
      const takenByAdmin = await api.post("/api/user", { email: "Ｏther@example.com", password: TEST_PASSWORD }, { token: admin.token });
      expect(takenByAdmin.status).toBe(409);
      expect(takenByAdmin.body.code).toBe("EMAIL_TAKEN");
      for (const email of ["no-at-sign", "two@@example.com", "a@nodot", "a b@example.com", "", null]) {
        expect((await api.patch(path, { email }, { token })).status, String(email)).toBe(400);
      }
      expect((await api.get(path, { token })).body.item.email).toBe("new.address@example.com");
    });

    it("refuses an email with U+0000 everywhere with a 400, never a 500", async () => {
      const user = await freshMember();
      const email = "nul\u0000@example.com";
      expect((await api.patch(`/api/user/${user.id}`, { email }, { token: user.token })).status).toBe(400);
      expect((await api.post("/api/user", { email, password: TEST_PASSWORD }, { token: admin.token })).status).toBe(400);
      expect((await api.post("/api/user/register", { email, password: TEST_PASSWORD })).status).toBe(400);
      expect((await api.post("/api/user/login", { email, password: TEST_PASSWORD })).status).toBe(400);
    });
  });

  describe("POST /api/user by the administrator", () => {
    it("applies register's rules and the default role, and lets the administrator choose another role", async () => {
      const made = await api.post(
        "/api/user",
        { email: ` Made${++counter}@Example.com`, password: TEST_PASSWORD, name: "M" },
        { token: admin.token },
      );
      expect(made.status, made.text).toBe(201);
      expect(Object.keys(made.body)).toEqual(["item"]);
      expect(made.body.item).toMatchObject({ email: `made${counter}@example.com`, role: "Member", name: "M" });
      await signIn(api, { email: made.body.item.email });

      const promoted = await api.post(
        "/api/user",
        { email: `boss${++counter}@example.com`, password: TEST_PASSWORD, role: "Admin" },
        { token: admin.token },
      );
      expect(promoted.status).toBe(201);
      expect(promoted.body.item.role).toBe("Admin");
      const roleless = await api.post(
        "/api/user",
        { email: `none${++counter}@example.com`, password: TEST_PASSWORD, role: null },
        { token: admin.token },
      );
      expect(roleless.status).toBe(201);
      expect(roleless.body.item.role).toBeNull();

      for (const body of [
        { email: "bad", password: TEST_PASSWORD },
        { email: "short@example.com", password: "short" },
        { email: "role@example.com", password: TEST_PASSWORD, role: "Emperor" },
        { email: "extra@example.com", password: TEST_PASSWORD, passwordHash: "$2b$04$x" },
        { password: TEST_PASSWORD },
      ]) {
        const result = await api.post("/api/user", body, { token: admin.token });
        expect(result.status, JSON.stringify(body)).toBe(400);
        expect(result.body.code).toBe("INVALID_BODY");
      }
    });
  });

  describe("the setup role", () => {
    it("cannot lose its last holder (409 LAST_ADMIN), by deletion or demotion", async () => {
      const fresh = await startInstance(domainOf(GUARDED_YAML), (await backendDatabase()).url);
      try {
        const freshApi = leakCheckingClient(fresh);
        const only = await setUpAdmin(freshApi);
        const deleted = await freshApi.delete(`/api/user/${only.id}`, { token: only.token });
        expect(deleted.status).toBe(409);
        expect(deleted.body.code).toBe("LAST_ADMIN");
        for (const role of ["Member", null]) {
          const demoted = await freshApi.patch(`/api/user/${only.id}`, { role }, { token: only.token });
          expect(demoted.status).toBe(409);
          expect(demoted.body.code).toBe("LAST_ADMIN");
        }
        const still = await freshApi.get("/api/user/me", { token: only.token });
        expect(still.status).toBe(200);
        expect(still.body.user.role).toBe("Admin");

        const second = await addUser(freshApi, only, { email: "second@example.com", role: "Admin" });
        const stepDown = await freshApi.patch(`/api/user/${only.id}`, { role: "Member" }, { token: only.token });
        expect(stepDown.status, stepDown.text).toBe(200);
        expect((await freshApi.get("/api/user/me", { token: only.token })).status).toBe(401);
        expect((await freshApi.delete(`/api/user/${second.id}`, { token: second.token })).status).toBe(409);
      } finally {
        await fresh.auth.close();
      }
    });

    it("keeps one holder when two administrators remove each other at the same time", async () => {
      const fresh = await startInstance(domainOf(GUARDED_YAML), (await backendDatabase()).url);
      try {
        const freshApi = leakCheckingClient(fresh);
        let first = await setUpAdmin(freshApi);
        for (let round = 0; round < 4; round++) {
          const second = await addUser(freshApi, first, { email: `rival${round}@example.com`, role: "Admin" });
          const results = await Promise.all([
            freshApi.delete(`/api/user/${second.id}`, { token: first.token }),
            freshApi.delete(`/api/user/${first.id}`, { token: second.token }),
          ]);
          const statuses = results.map((result) => result.status).sort();
          expect(statuses.filter((status) => status === 204)).toHaveLength(1);
          expect([
            [204, 401],
            [204, 409],
          ]).toContainEqual(statuses);
          if (results[1]?.status === 204) first = second;
          const admins = await freshApi.get("/api/user?limit=100", { token: first.token });
          expect(admins.body.items.filter((item: { role: string }) => item.role === "Admin")).toHaveLength(1);
        }
      } finally {
        await fresh.auth.close();
      }
    });
  });

  const extraDatabases: TestDatabase[] = [];
  async function backendDatabase(): Promise<TestDatabase> {
    const created = await backend.create();
    extraDatabases.push(created);
    return created;
  }
  afterAll(async () => {
    for (const extra of extraDatabases) await extra.drop();
  });
});

describe.each(BACKENDS)("field guards of the auth entity on $name", (backend) => {
  const instance = useInstance(backend.create, OPEN_USERS_YAML);
  let api: ApiClient;

  beforeAll(async () => {
    api = leakCheckingClient(instance);
  });

  it("completes setup when the first user is created through POST /api/user, with the default role", async () => {
    expect((await api.get("/api/user/setup")).body).toEqual({ setupRequired: true });
    const forced = await api.post("/api/user", { email: "first@example.com", password: TEST_PASSWORD, role: "Admin" });
    expect(forced.status).toBe(403);
    expect((await api.get("/api/user/setup")).body).toEqual({ setupRequired: true });
    const created = await api.post("/api/user", { email: "first@example.com", password: TEST_PASSWORD });
    expect(created.status, created.text).toBe(201);
    expect(created.body.item.role).toBe("Member");
    expect((await api.get("/api/user/setup")).body).toEqual({ setupRequired: false });
    expect((await api.post("/api/user/setup", { email: "late@example.com", password: TEST_PASSWORD })).status).toBe(409);
  });

  it("lets only the user or a setup-role caller write email and password, only a setup-role caller write role", async () => {
    const admin = await addUser(api, await adminFor(), { email: "admin2@example.com", role: "Admin" });
    const a = await addUser(api, admin, { email: "a@example.com" });
    const b = await addUser(api, admin, { email: "b@example.com" });
    const path = `/api/user/${b.id}`;
    expect((await api.patch(path, { name: "Named by a" }, { token: a.token })).status).toBe(200);
    for (const body of [{ email: "stolen@example.com" }, { password: "taken over!" }, { role: "Admin" }, { role: "Member" }]) {
      const result = await api.patch(path, body, { token: a.token });
      expect(result.status, JSON.stringify(body)).toBe(403);
    }
    const self = await api.patch(`/api/user/${a.id}`, { role: "Admin" }, { token: a.token });
    expect(self.status).toBe(403);
    expect((await api.get(path, { token: admin.token })).body.item).toMatchObject({ email: "b@example.com", role: "Member" });
    await signIn(api, { email: "b@example.com" });
  });

  it("lets only a setup-role caller update or delete a setup-role user", async () => {
    const admin = await adminFor();
    const member = await addUser(api, admin, { email: "m@example.com" });
    expect((await api.patch(`/api/user/${admin.id}`, { name: "Renamed" }, { token: member.token })).status).toBe(403);
    expect((await api.delete(`/api/user/${admin.id}`, { token: member.token })).status).toBe(403);
    const victim = await addUser(api, admin, { email: "victim@example.com" });
    expect((await api.delete(`/api/user/${victim.id}`, { token: member.token })).status).toBe(204);
    const second = await addUser(api, admin, { email: "admin3@example.com", role: "Admin" });
    expect((await api.patch(`/api/user/${second.id}`, { name: "By an admin" }, { token: admin.token })).status).toBe(200);
    expect((await api.delete(`/api/user/${second.id}`, { token: admin.token })).status).toBe(204);
  });

  let adminUser: SignedIn | undefined;
  /** An administrator of this instance: the first user, promoted by the admin command's way (the store). */
  async function adminFor(): Promise<SignedIn> {
    if (adminUser) return adminUser;
    const entity = instance.auth.model.entities.find((candidate) => candidate.isAuthEntity);
    if (!entity) throw new Error("no auth entity");
    const registered = await api.post("/api/user/register", { email: "root@example.com", password: TEST_PASSWORD });
    await instance.auth.tools.store.update(entity, registered.body.user.id, { role: "Admin" }, { bumpTokenVersion: true });
    adminUser = await signIn(api, { email: "root@example.com" });
    return adminUser;
  }
});
