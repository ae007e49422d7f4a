import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML, TEAMS_YAML } from "@domain-auth/test-support/domains";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { MailMessage } from "../../src/index.js";
import type { OpenApiDocument } from "../../src/openapi/index.js";
import { apiClient } from "../support/client.js";
import { Conformance } from "../support/conformance.js";
import { useInstance } from "../support/instance.js";

/**
 * The served document matches the server (docs/api.md#cors): a recorded flow — setup, sign-in, each auth
 * endpoint, CRUD on every entity with valid and invalid bodies — goes through a checker that
 * validates every request and answer against `/api/openapi.json` as a validating gateway would,
 * and finds nothing the two disagree on.
 */

const PASSWORD = "correct horse battery";
const ADMIN = { email: "admin@example.com", password: PASSWORD, name: "Ada" };

describe.each(BACKENDS)("the served document against a recorded flow on $name", (backend) => {
  const sent: MailMessage[] = [];
  const instance = useInstance(
    backend.create,
    BLOG_YAML.replace(
      "endpoints: { login: true, register: true, me: true, setup: true }",
      "endpoints: { login: true, register: true, me: true, setup: true, passwordReset: true }",
    ),
    {
      mail: { mailer: { send: async (message: MailMessage) => void sent.push(message) }, appUrl: "http://localhost" },
    },
  );
  let conformance: Conformance;
  let api: ReturnType<Conformance["over"]>;

  beforeAll(async () => {
    const served = await apiClient(instance.auth).get("/api/openapi.json");
    conformance = new Conformance(served.body as OpenApiDocument);
    api = conformance.over(apiClient(instance.auth));
  });

  /** The accounts flow: every auth endpoint with good and bad input. */
  async function accounts(): Promise<{ admin: string; reader: string; readerId: string; refreshToken: string }> {
    await api.get("/api/user/setup");
    await api.post("/api/user/setup", { email: "not an email", password: "x" });
    await api.post("/api/user/setup", { email: "no-at-sign", password: PASSWORD });
    const setup = await api.post("/api/user/setup", ADMIN);
    await api.post("/api/user/setup", ADMIN);
    await api.post("/api/user/login", { email: ADMIN.email, password: "wrong password" });
    await api.post("/api/user/login", { email: ADMIN.email });
    await api.post(
      "/api/user/login",
      { email: ADMIN.email, password: PASSWORD, transport: "cookie" },
      { headers: { origin: "http://localhost" } },
    );
    const registered = await api.post("/api/user/register", { email: "reader@example.com", password: PASSWORD, name: "Rae" });
    await api.post("/api/user/register", { email: "reader@example.com", password: PASSWORD });
    await api.post("/api/user/register", { email: "  Other.Person@Example.COM ", password: PASSWORD, role: "Admin" });
    await api.post("/api/user/register", { email: "short@example.com", password: "x" });
    const reader = await api.post("/api/user/login", { email: "reader@example.com", password: PASSWORD });
    await api.call("GET", "/api/user/login");
    await api.get("/api/user/me", { token: reader.body.token });
    await api.get("/api/user/me");
    await api.get("/api/user/me", { token: "not.a.token" });
    const refreshed = await api.post("/api/user/refresh", { refreshToken: reader.body.refreshToken });
    await api.post("/api/user/refresh", { refreshToken: "nope" });
    const sessions = await api.get("/api/user/sessions", { token: refreshed.body.token });
    await api.delete("/api/user/sessions/unknown", { token: refreshed.body.token });
    await api.delete(`/api/user/sessions?userId=${registered.body.user?.id ?? "x"}`, { token: setup.body.token });
    await api.post("/api/user/forgot-password", { email: "reader@example.com" });
    await api.post("/api/user/forgot-password", { email: "nobody" });
    await api.post("/api/user/forgot-password", { email: "  Reader@Example.COM " });
    await api.post("/api/user/reset-password", { token: "bad", password: PASSWORD });
    await api.post("/api/user/mfa/totp", undefined, { token: refreshed.body.token });
    await api.post("/api/user/mfa/totp/confirm", { code: "000000" }, { token: refreshed.body.token });
    await api.post("/api/user/mfa/recovery-codes", { currentPassword: PASSWORD }, { token: refreshed.body.token });
    await api.get("/api/user/passkeys", { token: refreshed.body.token });
    await api.post("/api/user/passkeys/options", undefined, { token: refreshed.body.token, headers: { host: "localhost" } });
    await api.post("/api/user/login/passkey/options", {}, { headers: { host: "localhost" } });
    await api.post("/api/user/login/mfa", { mfaToken: "mfa_nothing", code: "123456" });
    await api.get("/api/user/events?limit=5", { token: setup.body.token });
    await api.get("/api/user/events?type=nothing", { token: setup.body.token });
    await api.get("/api/user/events", { token: refreshed.body.token });
    const key = await api.post("/api/user/api-keys", { name: "CI", scopes: ["post:read"] }, { token: setup.body.token });
    await api.post("/api/user/api-keys", { name: "" }, { token: setup.body.token });
    await api.get("/api/user/api-keys", { token: setup.body.token });
    await api.get("/api/user/me", { token: key.body.key });
    await api.get("/api/post", { token: key.body.key });
    await api.post("/api/post", { title: "Out of scope" }, { token: key.body.key });
    await api.get("/api/user/sessions", { token: key.body.key });
    await api.delete(`/api/user/api-keys/${key.body.id}`, { token: setup.body.token });
    await api.get("/api/user/me", { token: key.body.key });
    expect(sessions.status).toBe(200);
    return {
      admin: setup.body.token,
      reader: refreshed.body.token,
      readerId: registered.body.user.id,
      refreshToken: refreshed.body.refreshToken,
    };
  }

  /** CRUD on every entity, with valid and invalid bodies and queries. */
  async function records(tokens: { admin: string; reader: string; readerId: string }): Promise<void> {
    const post = await api.post("/api/post", { title: "Hello", body: "text", published: true }, { token: tokens.admin });
    await api.post("/api/post", { title: "x".repeat(201) }, { token: tokens.admin });
    await api.post("/api/post", { title: "Hi" }, { token: tokens.reader });
    await api.post("/api/post", { body: "no title" }, { token: tokens.admin });
    await api.post("/api/post", { title: "Mine", id: "mine", createdAt: "2020-01-01T00:00:00Z" }, { token: tokens.admin });
    await api.get("/api/post");
    await api.call("HEAD", "/api/post");
    await api.call("HEAD", "/api/user/me", undefined, { token: tokens.reader });
    await api.get("/api/post?limit=1");
    const page = await api.get("/api/post?limit=1&total=exact");
    await api.get(`/api/post?limit=1&after=${page.body.nextCursor ?? ""}`);
    await api.get("/api/post?limit=0");
    const sorted = await api.get("/api/post?limit=1&q=E&sort=-title");
    expect(sorted.body.nextCursor).toEqual(expect.any(String));
    await api.get(`/api/post?limit=1&q=E&sort=-title&after=${sorted.body.nextCursor}`);
    await api.get(`/api/post?where.published=false&where.author=${tokens.readerId}&sort=published`);
    await api.get("/api/post?where.author=&sort=-updatedAt");
    for (const query of ["sort=body", "sort=-", "q=", "where.published=maybe", "where.title=Hello"]) {
      await api.get(`/api/post?${query}`);
    }
    await api.get(`/api/post/${post.body.item.id}`);
    await api.get("/api/post/missing");
    await api.patch(`/api/post/${post.body.item.id}`, { title: "Changed" }, { token: tokens.admin });
    await api.patch(`/api/post/${post.body.item.id}`, { title: 5 }, { token: tokens.admin });
    await api.patch(`/api/post/${post.body.item.id}`, { title: "Mine" }, { token: tokens.reader });
    await api.delete(`/api/post/${post.body.item.id}`, { token: tokens.reader });
    await api.delete(`/api/post/${post.body.item.id}`, { token: tokens.admin });
    await api.get("/api/user", { token: tokens.admin });
    await api.get(`/api/user/${tokens.readerId}`, { token: tokens.reader });
    await api.patch(`/api/user/${tokens.readerId}`, { name: "Rae R." }, { token: tokens.reader });
    await api.patch(`/api/user/${tokens.readerId}`, { role: "Editor" }, { token: tokens.admin });
    await api.patch(`/api/user/${tokens.readerId}`, { role: "Nobody" }, { token: tokens.admin });
    await api.post("/api/user", { email: "made@example.com", password: PASSWORD, role: "Editor" }, { token: tokens.admin });
    await api.post("/api/user", { email: "invited@example.com", name: "Ivy" }, { token: tokens.admin });
    await api.delete(`/api/user/${tokens.readerId}`, { token: tokens.admin });
  }

  it("finds no request or answer on which the server and its document disagree", async () => {
    const tokens = await accounts();
    await records(tokens);
    await api.post("/api/user/logout", { everywhere: false }, { token: tokens.admin });
    expect(conformance.disagreements).toEqual([]);
  });
});

describe.each(BACKENDS)("the served document of a domain with organizations against a recorded flow on $name", (backend) => {
  const sent: MailMessage[] = [];
  const instance = useInstance(backend.create, TEAMS_YAML, {
    mail: { mailer: { send: async (message: MailMessage) => void sent.push(message) }, appUrl: "http://localhost" },
  });

  it("finds no request or answer of the organization endpoints and tenant records on which they disagree", async () => {
    const served = await apiClient(instance.auth).get("/api/openapi.json");
    const conformance = new Conformance(served.body as OpenApiDocument);
    const api = conformance.over(apiClient(instance.auth));
    const owner = (await api.post("/api/user/setup", ADMIN)).body.token;
    const member = (await api.post("/api/user/register", { email: "member@example.com", password: PASSWORD })).body;
    const memberToken = (await api.post("/api/user/login", { email: "member@example.com", password: PASSWORD })).body.token;
    const created = await api.post("/api/orgs", { name: "Acme" }, { token: owner });
    await api.post("/api/orgs", { name: "" }, { token: owner });
    await api.post("/api/orgs", { name: "Taken", slug: created.body.organization.slug }, { token: owner });
    const org = `/api/orgs/${created.body.organization.id}`;
    await api.get("/api/orgs", { token: owner });
    await api.get(org, { token: owner });
    await api.get(org, { token: memberToken });
    await api.patch(org, { name: "Acme Inc." }, { token: owner });
    await api.patch(org, {}, { token: owner });
    await api.post(`${org}/invitations`, { email: "member@example.com", role: "Member" }, { token: owner });
    await api.post(`${org}/invitations`, { email: "nobody", role: "Chief" }, { token: owner });
    const pending = await api.get(`${org}/invitations`, { token: owner });
    // The message leaves after the answer.
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const link = sent.at(-1)?.link ?? "";
    await api.post("/api/orgs/invitations/accept", { token: "not-a-token" }, { token: memberToken });
    await api.post("/api/orgs/invitations/accept", { token: new URL(link).searchParams.get("token") }, { token: memberToken });
    await api.get(`${org}/members?limit=1`, { token: memberToken });
    await api.patch(`${org}/members/${member.user.id}`, { role: "Manager" }, { token: owner });
    await api.patch(`${org}/members/${member.user.id}`, { role: "Owner" }, { token: memberToken });
    const project = await api.post(`${org}/project`, { title: "Rocket", organizationId: "elsewhere" }, { token: memberToken });
    await api.post(`${org}/project`, { budget: "lots" }, { token: memberToken });
    await api.get(`${org}/project?limit=1`, { token: memberToken });
    await api.get(`${org}/project/${project.body.item.id}`, { token: owner });
    await api.patch(`${org}/project/${project.body.item.id}`, { budget: 3 }, { token: memberToken });
    await api.post(`${org}/task`, { title: "t", project: project.body.item.id }, { token: memberToken });
    await api.get(`${org}/task`, { token: memberToken });
    await api.delete(org, { token: owner });
    await api.delete(`${org}/members/${member.user.id}`, { token: memberToken });
    await api.get(`${org}/project`, { token: memberToken });
    await api.delete(`${org}/invitations/${pending.body.items[0]?.id ?? "none"}`, { token: owner });
    expect(project.status).toBe(201);
    expect(conformance.disagreements).toEqual([]);
  });
});
