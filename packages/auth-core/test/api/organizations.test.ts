import { createHash } from "node:crypto";
import { type SignedIn, setUpAdmin, signIn, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { domainOf, TEAMS_YAML } from "@domain-auth/test-support/domains";
import { linkOf, type MailServer, startMailServer, tokenOf } from "@domain-auth/test-support/mail-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSmtpMailer } from "../../src/index.js";
import type { ApiClient } from "../support/client.js";
import { settled } from "../support/events.js";
import { startInstance, type TestInstance } from "../support/instance.js";

/**
 * Organizations (docs/organizations.md), on both databases: records that belong to one, the
 * permissions of its members, its endpoints, invitations by e-mail, and two instances that must
 * agree at once on who is a member.
 */

const APP_URL = "https://app.example.com";
const ORGS = "/api/orgs";

interface Teams {
  first: TestInstance;
  second: TestInstance;
  mail: MailServer;
  advance(seconds: number): void;
}

/** Two instances on one fresh database (the first sends e-mail to a real SMTP server), with one clock. */
function useTeams(createDatabase: () => TestDatabase | Promise<TestDatabase>): Teams {
  let clock = Date.now();
  const teams = {
    advance(seconds: number) {
      clock += seconds * 1000;
    },
  } as Teams;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createDatabase();
    teams.mail = await startMailServer();
    const domain = domainOf(TEAMS_YAML);
    const mailer = createSmtpMailer({ url: teams.mail.url, from: "Teams <no-reply@app.example.com>" });
    teams.first = await startInstance(domain, database.url, { now: () => clock, mail: { mailer, appUrl: APP_URL, log: () => {} } });
    teams.second = await startInstance(domain, database.url, { now: () => clock });
  });
  afterAll(async () => {
    await teams.first?.auth.close();
    await teams.second?.auth.close();
    await teams.mail?.close();
    await database?.drop();
  });
  return teams;
}

describe.each(BACKENDS)("organizations on $name", (backend) => {
  const teams = useTeams(backend.create);
  const api = (): ApiClient => teams.first.api;
  const sent = new Map<string, number>();
  let counter = 0;
  const email = (label: string) => `${label}-${++counter}@example.com`;
  let admin: SignedIn;

  async function createOrganization(owner: SignedIn, name: string, slug?: string) {
    const created = await api().post(ORGS, slug ? { name, slug } : { name }, { token: owner.token });
    expect(created.status, created.text).toBe(201);
    return created.body.organization as { id: string; name: string; slug: string; createdAt: string };
  }

  /** Invites `address` into the organization as `role`; the token of the link it was sent. */
  async function invite(manager: SignedIn, organizationId: string, address: string, role: string): Promise<string> {
    const answer = await api().post(`${ORGS}/${organizationId}/invitations`, { email: address, role }, { token: manager.token });
    expect(answer.status, answer.text).toBe(201);
    const count = (sent.get(address) ?? 0) + 1;
    sent.set(address, count);
    return tokenOf(await teams.mail.waitFor(address, { count }));
  }

  /** A new person who joined the organization as `role` through an invitation. */
  async function member(manager: SignedIn, organizationId: string, role: string, label = role.toLowerCase()): Promise<SignedIn> {
    const person = await signUp(api(), { email: email(label) });
    const token = await invite(manager, organizationId, person.email, role);
    const accepted = await api().post(`${ORGS}/invitations/accept`, { token }, { token: person.token });
    expect(accepted.status, accepted.text).toBe(200);
    return person;
  }

  beforeAll(async () => {
    admin = await setUpAdmin(api());
  });
  // Some tests move the clock past a token's life: each signs in again.
  beforeEach(async () => {
    admin = await signIn(api(), admin);
  });

  describe("creating and listing", () => {
    it("makes the caller its first member with the first role, a slug from the name, and lists it", async () => {
      const owner = await signUp(api(), { email: email("founder") });
      const created = await api().post(ORGS, { name: "  Ümlaut & Co. " }, { token: owner.token });
      expect(created.status, created.text).toBe(201);
      expect(created.body.role).toBe("Owner");
      expect(created.body.organization).toMatchObject({ name: "Ümlaut & Co.", slug: "umlaut-co" });
      expect(Object.keys(created.body.organization).sort()).toEqual(["createdAt", "id", "name", "slug"]);
      // The same name again: a suffix, not a conflict; a slug asked for and taken is 409.
      const again = await createOrganization(owner, "Ümlaut & Co.");
      expect(again.slug).toMatch(/^umlaut-co-[0-9a-f]{6}$/);
      const taken = await api().post(ORGS, { name: "Other", slug: "umlaut-co" }, { token: owner.token });
      expect(taken).toMatchObject({ status: 409, body: { code: "CONFLICT", issues: [{ path: ["slug"] }] } });
      const listed = await api().get(ORGS, { token: owner.token });
      expect(listed.body.items.map((item: { id: string; role: string }) => [item.id, item.role])).toEqual([
        [created.body.organization.id, "Owner"],
        [again.id, "Owner"],
      ]);
      const someoneElse = await signUp(api(), { email: email("stranger") });
      expect((await api().get(ORGS, { token: someoneElse.token })).body.items).toEqual([]);
    });

    it("validates the body: a name, a slug of the documented form, nothing else", async () => {
      const owner = await signUp(api(), { email: email("validator") });
      for (const body of [
        {},
        { name: "" },
        { name: "x".repeat(101) },
        { name: "A", slug: "-bad" },
        { name: "A", slug: "A" },
        { name: "A", extra: 1 },
      ]) {
        const answer = await api().post(ORGS, body, { token: owner.token });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body.code).toBe("INVALID_BODY");
      }
      expect((await api().post(ORGS, { name: "x" })).status).toBe(401);
    });
  });

  describe("tenant records", () => {
    let owner: SignedIn;
    let manager: SignedIn;
    let plain: SignedIn;
    let acme: string;
    let globex: string;
    let globexOwner: SignedIn;
    let acmeProject: { id: string };
    let globexProject: { id: string };

    beforeAll(async () => {
      owner = await signUp(api(), { email: email("acme-owner") });
      acme = (await createOrganization(owner, "Acme")).id;
      manager = await member(owner, acme, "Manager");
      plain = await member(owner, acme, "Member");
      globexOwner = await signUp(api(), { email: email("globex-owner") });
      globex = (await createOrganization(globexOwner, "Globex")).id;
      acmeProject = (await api().post(`${ORGS}/${acme}/project`, { title: "Rocket" }, { token: manager.token })).body.item;
      globexProject = (await api().post(`${ORGS}/${globex}/project`, { title: "Secret" }, { token: globexOwner.token })).body.item;
    });

    it("sets organizationId from the path, ignores it in bodies and never moves a record", async () => {
      const created = await api().post(`${ORGS}/${acme}/project`, { title: "Moon", organizationId: globex }, { token: owner.token });
      expect(created.status, created.text).toBe(201);
      expect(created.body.item).toMatchObject({ title: "Moon", organizationId: acme });
      const moved = await api().patch(
        `${ORGS}/${acme}/project/${created.body.item.id}`,
        { organizationId: globex, title: "Moon 2" },
        { token: owner.token },
      );
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.item).toMatchObject({ title: "Moon 2", organizationId: acme });
      expect((await api().get(`${ORGS}/${globex}/project/${created.body.item.id}`, { token: globexOwner.token })).status).toBe(404);
    });

    it("serves a tenant entity only under its organization: /api/<segment> is 404", async () => {
      for (const path of ["/api/project", `/api/project/${acmeProject.id}`]) {
        expect((await api().get(path, { token: owner.token })).status).toBe(404);
        expect((await api().get(path, { token: admin.token })).status).toBe(404);
      }
    });

    it("answers a record of another organization as absent: read, update, delete, list and cursor", async () => {
      const other = `${ORGS}/${acme}/project/${globexProject.id}`;
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { title: "pwned" }],
        ["DELETE", undefined],
      ] as const) {
        const answer = await api().call(method, other, body, { token: owner.token });
        expect(answer, `${method} ${answer.text}`).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      }
      const listed = await api().get(`${ORGS}/${acme}/project?limit=100`, { token: owner.token });
      expect(listed.body.items.every((item: { organizationId: string }) => item.organizationId === acme)).toBe(true);
      expect(listed.body.items.map((item: { id: string }) => item.id)).not.toContain(globexProject.id);
      // A cursor from one organization's list pages only within the path's organization.
      await api().post(`${ORGS}/${globex}/project`, { title: "Secret 2" }, { token: globexOwner.token });
      const first = await api().get(`${ORGS}/${globex}/project?limit=1`, { token: globexOwner.token });
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const paged = await api().get(`${ORGS}/${acme}/project?limit=100&after=${encodeURIComponent(first.body.nextCursor ?? "")}`, {
        token: owner.token,
      });
      expect(paged.body.items.every((item: { organizationId: string }) => item.organizationId === acme)).toBe(true);
      const secret = await api().get(`${ORGS}/${globex}/project/${globexProject.id}`, { token: globexOwner.token });
      expect(secret.body.item.title).toBe("Secret");
    });

    it("refuses a reference into another organization as a missing record", async () => {
      const crossed = await api().post(`${ORGS}/${acme}/task`, { title: "t", project: globexProject.id }, { token: plain.token });
      expect(crossed).toMatchObject({ status: 400, body: { code: "INVALID_BODY", issues: [{ path: ["project"] }] } });
      const own = await api().post(`${ORGS}/${acme}/task`, { title: "t", project: acmeProject.id }, { token: plain.token });
      expect(own.status, own.text).toBe(201);
      const moved = await api().patch(`${ORGS}/${acme}/task/${own.body.item.id}`, { project: globexProject.id }, { token: plain.token });
      expect(moved).toMatchObject({ status: 400, body: { code: "INVALID_BODY" } });
    });

    it("decides by the role in the path's organization: @Member(R), @Member, @Owner; 403 for a member, 404 for anyone else", async () => {
      // Member may read (@Member), not create (@Member(Owner, Manager)).
      expect((await api().get(`${ORGS}/${acme}/project`, { token: plain.token })).status).toBe(200);
      const refused = await api().post(`${ORGS}/${acme}/project`, { title: "mine" }, { token: plain.token });
      expect(refused).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      // Manager updates any project, deletes none (@Member(Owner)); the Owner deletes.
      expect((await api().patch(`${ORGS}/${acme}/project/${acmeProject.id}`, { budget: 5 }, { token: manager.token })).status).toBe(200);
      expect((await api().delete(`${ORGS}/${acme}/project/${acmeProject.id}`, { token: manager.token })).status).toBe(403);
      // A member of another organization, a stranger: 404 for everything under /api/orgs/<acme>/.
      const stranger = await signUp(api(), { email: email("stranger") });
      for (const who of [stranger, globexOwner]) {
        for (const path of ["", "/members", "/invitations", "/project", `/project/${acmeProject.id}`, "/task"]) {
          const answer = await api().get(`${ORGS}/${acme}${path}`, { token: who.token });
          expect(answer, `${path} ${answer.text}`).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
        }
        expect((await api().post(`${ORGS}/${acme}/project`, { title: "x" }, { token: who.token })).status).toBe(404);
      }
      // A global role the list names grants in every organization: the setup role reads.
      expect((await api().get(`${ORGS}/${acme}/project/${acmeProject.id}`, { token: admin.token })).status).toBe(200);
      expect((await api().post(`${ORGS}/${acme}/project`, { title: "x" }, { token: admin.token })).status).toBe(404);
    });

    it("lets @Owner reach only the caller's own records within the organization", async () => {
      const ownersProject = (await api().post(`${ORGS}/${acme}/project`, { title: "by manager" }, { token: manager.token })).body.item;
      const promoted = await member(owner, acme, "Manager", "creator");
      const mine = (await api().post(`${ORGS}/${acme}/project`, { title: "mine" }, { token: promoted.token })).body.item;
      const demoted = await api().patch(`${ORGS}/${acme}/members/${promoted.id}`, { role: "Member" }, { token: owner.token });
      expect(demoted.status, demoted.text).toBe(200);
      expect((await api().patch(`${ORGS}/${acme}/project/${mine.id}`, { title: "still mine" }, { token: promoted.token })).status).toBe(
        200,
      );
      const notMine = await api().patch(`${ORGS}/${acme}/project/${ownersProject.id}`, { title: "x" }, { token: promoted.token });
      expect(notMine).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    });

    it("answers 401 to an anonymous caller before looking the organization up", async () => {
      for (const organization of [acme, "no-such-organization"]) {
        const answer = await api().get(`${ORGS}/${organization}/project`);
        expect(answer).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
      }
      expect((await api().get(`${ORGS}/no-such-organization/project`, { token: owner.token })).status).toBe(404);
    });

    it("refuses a removed member at once, on the other instance too", async () => {
      const leaving = await member(owner, acme, "Manager", "leaving");
      const path = `${ORGS}/${acme}/project`;
      expect((await teams.second.api.get(path, { token: leaving.token })).status).toBe(200);
      const removed = await api().delete(`${ORGS}/${acme}/members/${leaving.id}`, { token: owner.token });
      expect(removed.status, removed.text).toBe(204);
      for (const instance of [teams.second, teams.first]) {
        expect((await instance.api.get(path, { token: leaving.token })).status).toBe(404);
        expect((await instance.api.post(path, { title: "x" }, { token: leaving.token })).status).toBe(404);
        expect((await instance.api.get(`${ORGS}/${acme}`, { token: leaving.token })).status).toBe(404);
      }
    });

    it("lets an API key act as its user in their organizations, narrowed by its scopes", async () => {
      const keyOf = async (scopes?: string[]) => {
        const fresh = await signIn(api(), owner);
        const created = await api().post("/api/user/api-keys", { name: "k", ...(scopes ? { scopes } : {}) }, { token: fresh.token });
        expect(created.status, created.text).toBe(201);
        return created.body.key as string;
      };
      const reader = await keyOf(["project:read"]);
      expect((await api().get(`${ORGS}/${acme}/project`, { token: reader })).status).toBe(200);
      expect((await api().post(`${ORGS}/${acme}/project`, { title: "k" }, { token: reader })).status).toBe(403);
      expect((await api().get(`${ORGS}/${globex}/project`, { token: reader })).status).toBe(404);
      const listed = await api().get(ORGS, { token: reader });
      expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(acme);
      expect((await api().post(`${ORGS}/${acme}/project`, { title: "k" }, { token: await keyOf() })).status).toBe(201);
      expect((await api().post(ORGS, { name: "by key" }, { token: reader })).status).toBe(403);
    });
  });

  describe("members and roles", () => {
    it("pages members oldest first, with their e-mail, role and when they joined", async () => {
      const owner = await signUp(api(), { email: email("pager") });
      const organization = (await createOrganization(owner, "Pager")).id;
      const joined = [owner];
      for (let index = 0; index < 3; index++) joined.push(await member(owner, organization, "Member", `paged${index}`));
      const first = await api().get(`${ORGS}/${organization}/members?limit=2`, { token: joined[3]?.token ?? "" });
      expect(first.status, first.text).toBe(200);
      expect(first.body.items).toHaveLength(2);
      expect(first.body.items[0]).toMatchObject({ userId: owner.id, email: owner.email, role: "Owner" });
      expect(Object.keys(first.body.items[0]).sort()).toEqual(["email", "joinedAt", "role", "userId"]);
      const second = await api().get(`${ORGS}/${organization}/members?limit=2&after=${first.body.nextCursor}`, { token: owner.token });
      expect(second.body.items.map((item: { userId: string }) => item.userId)).toEqual(joined.slice(2).map((each) => each.id));
      expect(second.body.nextCursor).toBeNull();
      expect((await api().get(`${ORGS}/${organization}/members?after=not-a-cursor`, { token: owner.token })).status).toBe(400);
    });

    it("keeps a manager within their rank, and only the first role grants the first role", async () => {
      const owner = await signUp(api(), { email: email("ranked") });
      const organization = (await createOrganization(owner, "Ranked")).id;
      const manager = await member(owner, organization, "Manager");
      const plain = await member(owner, organization, "Member");
      const members = `${ORGS}/${organization}/members`;
      const refusals = [
        await api().patch(`${members}/${plain.id}`, { role: "Owner" }, { token: manager.token }),
        await api().patch(`${members}/${owner.id}`, { role: "Member" }, { token: manager.token }),
        await api().delete(`${members}/${owner.id}`, { token: manager.token }),
        await api().patch(`${members}/${manager.id}`, { role: "Member" }, { token: plain.token }),
        await api().post(`${ORGS}/${organization}/invitations`, { email: email("x"), role: "Owner" }, { token: manager.token }),
        await api().post(`${ORGS}/${organization}/invitations`, { email: email("x"), role: "Member" }, { token: plain.token }),
        await api().patch(`${ORGS}/${organization}`, { name: "Renamed" }, { token: manager.token }),
        await api().delete(`${ORGS}/${organization}`, { token: manager.token }),
      ];
      for (const answer of refusals) expect(answer, answer.text).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
      expect((await api().patch(`${members}/${plain.id}`, { role: "Manager" }, { token: manager.token })).body.member).toMatchObject({
        role: "Manager",
      });
      expect((await api().patch(`${members}/${plain.id}`, { role: "Boss" }, { token: owner.token })).status).toBe(400);
      expect((await api().patch(`${members}/${plain.id}`, { role: "Owner" }, { token: owner.token })).status).toBe(200);
      const renamed = await api().patch(`${ORGS}/${organization}`, { name: "Renamed" }, { token: plain.token });
      expect(renamed.body.organization).toMatchObject({ name: "Renamed" });
    });

    it("keeps the last holder of the first role: 409 LAST_OWNER on demotion, removal and leaving", async () => {
      const owner = await signUp(api(), { email: email("last") });
      const organization = (await createOrganization(owner, "Last")).id;
      const plain = await member(owner, organization, "Member");
      const members = `${ORGS}/${organization}/members`;
      for (const answer of [
        await api().patch(`${members}/${owner.id}`, { role: "Member" }, { token: owner.token }),
        await api().delete(`${members}/${owner.id}`, { token: owner.token }),
        await api().delete(`${members}/${owner.id}`, { token: admin.token }),
      ]) {
        expect(answer, answer.text).toMatchObject({ status: 409, body: { code: "LAST_OWNER" } });
      }
      // A member leaves by themself; once another holds the first role, the owner may step down.
      expect((await api().delete(`${members}/${plain.id}`, { token: plain.token })).status).toBe(204);
      const heir = await member(owner, organization, "Owner", "heir");
      expect((await api().delete(`${members}/${owner.id}`, { token: owner.token })).status).toBe(204);
      expect((await api().get(ORGS, { token: owner.token })).body.items).toEqual([]);
      expect((await api().get(`${ORGS}/${organization}`, { token: heir.token })).body.role).toBe("Owner");
    });

    it("settles two owners demoting each other at once: one of them keeps the first role", async () => {
      const one = await signUp(api(), { email: email("race-one") });
      const organization = (await createOrganization(one, "Race")).id;
      const two = await member(one, organization, "Owner", "race-two");
      const members = `${ORGS}/${organization}/members`;
      const answers = await Promise.all([
        api().patch(`${members}/${one.id}`, { role: "Member" }, { token: two.token }),
        // Two instances on PostgreSQL; on SQLite one process shares one writer, so one instance takes both.
        (backend.name === "postgres" ? teams.second.api : api()).patch(`${members}/${two.id}`, { role: "Member" }, { token: one.token }),
      ]);
      // The second decides under the organization's lock with the role its caller holds by then: no longer the first.
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
      const page = await api().get(members, { token: one.token });
      expect(page.body.items.filter((item: { role: string }) => item.role === "Owner")).toHaveLength(1);
    });

    it("lets the setup role read and manage any organization (support)", async () => {
      const owner = await signUp(api(), { email: email("supported") });
      const organization = (await createOrganization(owner, "Supported")).id;
      const plain = await member(owner, organization, "Member");
      const seen = await api().get(`${ORGS}/${organization}`, { token: admin.token });
      expect(seen.body).toMatchObject({ organization: { id: organization }, role: null });
      expect((await api().get(`${ORGS}/${organization}/members`, { token: admin.token })).body.items).toHaveLength(2);
      expect((await api().patch(`${ORGS}/${organization}/members/${plain.id}`, { role: "Owner" }, { token: admin.token })).status).toBe(
        200,
      );
      expect((await api().get(ORGS, { token: admin.token })).body.items.map((item: { id: string }) => item.id)).not.toContain(organization);
    });
  });

  describe("invitations", () => {
    let owner: SignedIn;
    let organization: string;
    beforeAll(async () => {
      owner = await signUp(api(), { email: email("inviter") });
      organization = (await createOrganization(owner, "Inviting")).id;
    });

    it("mails a single-use link to APP_URL/invitations?token=…, stores only its SHA-256, and never names the organization", async () => {
      const invited = await signUp(api(), { email: email("invited") });
      const answer = await api().post(
        `${ORGS}/${organization}/invitations`,
        { email: ` ${invited.email.toUpperCase()} `, role: "Manager" },
        { token: owner.token },
      );
      expect(answer.status, answer.text).toBe(201);
      expect(answer.body).toMatchObject({ email: invited.email, role: "Manager" });
      expect(Object.keys(answer.body).sort()).toEqual(["email", "expiresAt", "id", "role"]);
      const message = await teams.mail.waitFor(invited.email);
      sent.set(invited.email, 1);
      const link = linkOf(message);
      expect(`${link.origin}${link.pathname}`).toBe(`${APP_URL}/invitations`);
      expect(Buffer.from(tokenOf(message), "base64url")).toHaveLength(32);
      expect(`${message.text}${message.html}`).not.toContain("Inviting");
      expect(message.text).toContain("for 7 days");
      const database = teams.first.auth.tools.apiKeys?.store.database.db;
      if (!database) throw new Error("no database");
      const rows = await database.selectFrom("domain_auth_org_invitations").selectAll().where("id", "=", answer.body.id).execute();
      expect(rows[0]?.tokenHash).toBe(createHash("sha256").update(tokenOf(message)).digest("base64url"));
      expect(JSON.stringify(rows)).not.toContain(tokenOf(message));
      const listed = await api().get(`${ORGS}/${organization}/invitations`, { token: owner.token });
      expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(answer.body.id);

      const accepted = await api().post(`${ORGS}/invitations/accept`, { token: tokenOf(message) }, { token: invited.token });
      expect(accepted.body).toMatchObject({ organization: { id: organization, name: "Inviting" }, role: "Manager" });
      const again = await api().post(`${ORGS}/invitations/accept`, { token: tokenOf(message) }, { token: invited.token });
      expect(again).toMatchObject({ status: 400, body: { code: "INVALID_INVITATION" } });
      expect(
        (await api().get(`${ORGS}/${organization}/invitations`, { token: owner.token })).body.items.map((item: { id: string }) => item.id),
      ).not.toContain(answer.body.id);
    });

    it("refuses another account with 403 and keeps the link working for the invited one", async () => {
      const address = email("right");
      const token = await invite(owner, organization, address, "Member");
      const wrong = await signUp(api(), { email: email("wrong") });
      expect(await api().post(`${ORGS}/invitations/accept`, { token }, { token: wrong.token })).toMatchObject({
        status: 403,
        body: { code: "FORBIDDEN" },
      });
      expect((await api().post(`${ORGS}/invitations/accept`, { token })).status).toBe(401);
      const right = await signUp(api(), { email: address });
      expect((await api().post(`${ORGS}/invitations/accept`, { token }, { token: right.token })).body.role).toBe("Member");
    });

    it("replaces a pending invitation for the same e-mail, and ends one revoked or older than 7 days", async () => {
      const address = email("replaced");
      const person = await signUp(api(), { email: address });
      const old = await invite(owner, organization, address, "Member");
      const fresh = await invite(owner, organization, address, "Manager");
      expect((await api().post(`${ORGS}/invitations/accept`, { token: old }, { token: person.token })).body.code).toBe(
        "INVALID_INVITATION",
      );
      const pending = (await api().get(`${ORGS}/${organization}/invitations`, { token: owner.token })).body.items.filter(
        (item: { email: string }) => item.email === address,
      );
      expect(pending).toHaveLength(1);
      expect((await api().delete(`${ORGS}/${organization}/invitations/${pending[0].id}`, { token: owner.token })).status).toBe(204);
      expect((await api().post(`${ORGS}/invitations/accept`, { token: fresh }, { token: person.token })).body.code).toBe(
        "INVALID_INVITATION",
      );
      const late = await invite(owner, organization, address, "Member");
      teams.advance(7 * 24 * 3600 + 1);
      const fresher = await signIn(api(), person);
      expect((await api().post(`${ORGS}/invitations/accept`, { token: late }, { token: fresher.token })).body.code).toBe(
        "INVALID_INVITATION",
      );
      for (const token of ["", "x".repeat(43), "a".repeat(500)]) {
        expect((await api().post(`${ORGS}/invitations/accept`, { token }, { token: fresher.token })).status).toBe(400);
      }
    });

    it("ends the pending invitations of a member who is demoted or removed", async () => {
      owner = await signIn(api(), owner);
      const manager = await member(owner, organization, "Manager", "inviting-manager");
      const [demoted, removed] = [email("by-demoted"), email("by-removed")];
      const first = await invite(manager, organization, demoted, "Manager");
      expect((await api().patch(`${ORGS}/${organization}/members/${manager.id}`, { role: "Member" }, { token: owner.token })).status).toBe(
        200,
      );
      const promoted = await api().patch(`${ORGS}/${organization}/members/${manager.id}`, { role: "Manager" }, { token: owner.token });
      expect(promoted.status).toBe(200);
      const second = await invite(manager, organization, removed, "Member");
      expect((await api().delete(`${ORGS}/${organization}/members/${manager.id}`, { token: owner.token })).status).toBe(204);
      for (const [address, token] of [
        [demoted, first],
        [removed, second],
      ] as const) {
        const person = await signUp(api(), { email: address });
        expect((await api().post(`${ORGS}/invitations/accept`, { token }, { token: person.token })).body.code).toBe("INVALID_INVITATION");
      }
    });

    it("needs a recent sign-in to invite: a stolen old session cannot bring someone in", async () => {
      const stale = await signIn(api(), owner);
      // Past the recent sign-in window (10 minutes), before the token ends (15).
      teams.advance(11 * 60);
      const refused = await api().post(
        `${ORGS}/${organization}/invitations`,
        { email: email("late"), role: "Member" },
        { token: stale.token },
      );
      expect(refused).toMatchObject({ status: 403, body: { code: "REAUTHENTICATION_REQUIRED" } });
      const proved = await api().post(
        `${ORGS}/${organization}/invitations`,
        { email: email("proved"), role: "Member", currentPassword: owner.password },
        { token: stale.token },
      );
      expect(proved.status, proved.text).toBe(201);
      owner = await signIn(api(), owner);
    });
  });

  describe("deleting", () => {
    it("deletes an empty organization (the first role), and refuses one that holds records", async () => {
      const owner = await signUp(api(), { email: email("deleter") });
      const organization = (await createOrganization(owner, "Short-lived")).id;
      const project = (await api().post(`${ORGS}/${organization}/project`, { title: "keep" }, { token: owner.token })).body.item;
      expect(await api().delete(`${ORGS}/${organization}`, { token: owner.token })).toMatchObject({
        status: 409,
        body: { code: "ORGANIZATION_NOT_EMPTY" },
      });
      expect((await api().delete(`${ORGS}/${organization}/project/${project.id}`, { token: owner.token })).status).toBe(204);
      expect((await api().delete(`${ORGS}/${organization}`, { token: owner.token })).status).toBe(204);
      expect((await api().get(`${ORGS}/${organization}`, { token: owner.token })).status).toBe(404);
      expect((await api().get(`${ORGS}/${organization}/project`, { token: owner.token })).status).toBe(404);
    });

    it("removes a deleted user's memberships: 409 LAST_OWNER while others remain; an empty organization goes with them", async () => {
      const owner = await signUp(api(), { email: email("doomed") });
      const shared = (await createOrganization(owner, "Shared")).id;
      const alone = (await createOrganization(owner, "Alone")).id;
      const keeping = (await createOrganization(owner, "Keeping")).id;
      await api().post(`${ORGS}/${keeping}/project`, { title: "kept" }, { token: owner.token });
      const other = await member(owner, shared, "Member");
      expect(await api().delete(`/api/user/${owner.id}`, { token: admin.token })).toMatchObject({
        status: 409,
        body: { code: "LAST_OWNER" },
      });
      expect((await api().patch(`${ORGS}/${shared}/members/${other.id}`, { role: "Owner" }, { token: owner.token })).status).toBe(200);
      expect((await api().delete(`/api/user/${owner.id}`, { token: admin.token })).status).toBe(204);
      expect(
        (await api().get(`${ORGS}/${shared}/members`, { token: other.token })).body.items.map((item: { userId: string }) => item.userId),
      ).toEqual([other.id]);
      expect((await api().get(`${ORGS}/${alone}`, { token: admin.token })).status).toBe(404);
      // One holding records stays for the setup role, and the events say so.
      expect((await api().get(`${ORGS}/${keeping}/members`, { token: admin.token })).body.items).toEqual([]);
      await settled(teams.first.auth);
      const events = await api().get("/api/user/events?type=member.removed&limit=100", { token: admin.token });
      const orphaned = events.body.items.find((event: { detail: { organizationId: string } }) => event.detail.organizationId === keeping);
      expect(orphaned).toMatchObject({ userId: owner.id, detail: { orphaned: true } });
    });
  });

  it("answers server code's questions as the API does: membership(), and can() with it", async () => {
    const owner = await signUp(api(), { email: email("server-code") });
    const organization = await createOrganization(owner, "Server code");
    const plain = await member(owner, organization.id, "Member");
    const stranger = await signUp(api(), { email: email("server-stranger") });
    const auth = teams.second.auth;
    const profile = async (who: SignedIn) => auth.currentUser(new Headers({ authorization: `Bearer ${who.token}` }));
    const ownerMembership = await auth.membership(await profile(owner), organization.id);
    expect(ownerMembership).toEqual({ organization: { ...organization }, role: "Owner" });
    const plainMembership = await auth.membership(await profile(plain), organization.id);
    expect(plainMembership?.role).toBe("Member");
    expect(await auth.membership(await profile(stranger), organization.id)).toBeNull();
    expect(await auth.membership(null, organization.id)).toBeNull();
    expect(await auth.membership(await profile(owner), "no-such-organization")).toBeNull();
    expect(auth.can(await profile(owner), "create", "Project", undefined, { membership: ownerMembership })).toBe(true);
    expect(auth.can(await profile(plain), "create", "Project", undefined, { membership: plainMembership })).toBe(false);
    expect(auth.can(await profile(plain), "read", "Project", undefined, { membership: plainMembership })).toBe(true);
    expect(auth.can(await profile(stranger), "read", "Project")).toBe(false);
  });

  it("records every change as an event with detail.organizationId", async () => {
    const owner = await signUp(api(), { email: email("audited") });
    const organization = (await createOrganization(owner, "Audited")).id;
    const joined = await member(owner, organization, "Member");
    await api().patch(`${ORGS}/${organization}/members/${joined.id}`, { role: "Manager" }, { token: owner.token });
    await api().delete(`${ORGS}/${organization}/members/${joined.id}`, { token: joined.token });
    await api().delete(`${ORGS}/${organization}`, { token: owner.token });
    await settled(teams.first.auth);
    const page = await api().get("/api/user/events?limit=100", { token: admin.token });
    const ours = page.body.items.filter((event: { detail: { organizationId?: string } }) => event.detail.organizationId === organization);
    expect(ours.map((event: { type: string }) => event.type).sort()).toEqual(
      [
        "invitation.accepted",
        "invitation.sent",
        "member.added",
        "member.removed",
        "member.role_changed",
        "organization.created",
        "organization.deleted",
      ].sort(),
    );
  });
});
