import { randomBytes } from "node:crypto";
import { type Authenticated, invalidTokenError, type KeyAuthenticated } from "../accounts/authenticate.js";
import { requestEvents } from "../accounts/security-events.js";
import type { AuthServices } from "../context.js";
import { defineOperation } from "../endpoints/operation.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError, enforce } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import {
  actorOf,
  checkActOnMember,
  checkCreateOrganization,
  checkFirstRole,
  checkGrant,
  checkLastOwner,
  checkManages,
  firstRoleOf,
  type Membership,
  rankBelow,
  SLUG_PATTERN,
  seesOrganization,
} from "../policy/organizations.js";
import { decodeListCursor, encodeListCursor } from "../records/list-cursor.js";
import { uniqueViolationColumn } from "../store/errors.js";
import { UniqueConflictError } from "../store/record-store.js";
import { INVITATION_TTL_SECONDS, type InvitationRow, type MemberChange, type MemberRow } from "./organization-store.js";
import { type Invitation, type Member, type OrganizationSummary, organizationView } from "./organization-view.js";
import type { Organizations } from "./organizations.js";

/** The organizations of an instance; every organization endpoint is switched off without them. */
function organizationsOf(services: AuthServices): Organizations {
  if (!services.organizations) throw new ApiError("NOT_FOUND");
  return services.organizations;
}

function memberView(row: MemberRow): Member {
  return { userId: row.userId, email: row.email, role: row.role, joinedAt: new Date(row.createdAt).toISOString() };
}

function invitationView(row: InvitationRow): Invitation {
  return { id: row.id, email: row.email, role: row.role, expiresAt: new Date(Number(row.expiresAt)).toISOString() };
}

/** What a request learned of the organization of its path: the caller's membership (`null`: the setup role's support access). */
interface OrganizationCall {
  readonly organizations: Organizations;
  readonly membership: Membership | null;
}

/** Each request's organization, once its admission read it: the handler reads it from here, not from the database again. */
const admitted = new WeakMap<ApiRequest, OrganizationCall>();

/**
 * The admission of every operation under `/api/orgs/<orgId>/`: the organization exists and the
 * caller is a member of it, or holds the setup role; else 404, whether or not it exists
 * (docs/organizations.md#who-may-do-what). One read, by primary keys.
 */
async function admitOrganization({
  services,
  request,
  caller,
  path,
}: {
  readonly services: AuthServices;
  readonly request: ApiRequest;
  readonly caller: Authenticated | KeyAuthenticated;
  readonly path: { readonly orgId: string };
}): Promise<void> {
  const organizations = organizationsOf(services);
  const access = await organizations.store.access(path.orgId, caller.caller.id);
  const membership = access?.role ? { role: access.role } : null;
  if (!access || !seesOrganization(services.auth, caller.caller, membership)) throw new ApiError("NOT_FOUND");
  admitted.set(request, { organizations, membership });
}

/** The admission of an operation only managers may call: a member who is not one gets 403, after {@link admitOrganization}. */
function admitManager({
  services,
  request,
  caller,
}: {
  services: AuthServices;
  request: ApiRequest;
  caller: Authenticated | KeyAuthenticated;
}): void {
  const call = organizationCall(request);
  enforce(checkManages(call.organizations.rules, actorOf(services.auth, caller.caller, call.membership)));
}

function organizationCall(request: ApiRequest): OrganizationCall {
  const call = admitted.get(request);
  if (!call) throw new Error("the organization of this request was not admitted");
  return call;
}

/**
 * The caller's standing in the organization as it is now, inside the transaction that holds the
 * organization's lock: a request admitted just before its caller was demoted or removed decides
 * with what they hold at the moment of the change (404 once they are no member and not support).
 */
async function actorNow(services: AuthServices, caller: Authenticated, members: MemberChange) {
  const own = await members.member(caller.user.id);
  const actor = actorOf(services.auth, caller.caller, own ? { role: own.role } : null);
  if (!actor.support && actor.role === null) throw new ApiError("NOT_FOUND");
  return actor;
}

const MEMBERS: { readonly admit: readonly [typeof admitOrganization] } = { admit: [admitOrganization] };
const MANAGERS: { readonly admit: readonly [typeof admitOrganization, typeof admitManager] } = { admit: [admitOrganization, admitManager] };

/** A slug made from a name: lower-case ASCII letters and digits, dashes between words (`Acme Inc.` → `acme-inc`). */
export function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32)
    .replace(/-+$/, "");
  return SLUG_PATTERN.test(slug) ? slug : `org-${randomBytes(3).toString("hex")}`;
}

/** Whether an error is the organizations' slug clash. */
function isSlugClash(error: unknown): boolean {
  return uniqueViolationColumn(error) === "slug" || (error instanceof UniqueConflictError && error.column === "slug");
}

function slugTaken(error: unknown): ApiError {
  return new ApiError("CONFLICT", { issues: [{ path: ["slug"], message: "is already taken" }], cause: error });
}

/** `POST /api/orgs`: the caller creates an organization and is its first member, with the first role. */
export const createOrganization = defineOperation("createOrganization", async ({ context, services, request, caller, body }) => {
  const organizations = organizationsOf(services);
  enforce(checkCreateOrganization(organizations.rules, caller.caller));
  const role = firstRoleOf(organizations.rules);
  const events = requestEvents(context, services, request);
  // A slug made from the name gets a suffix when taken; one the caller chose is theirs or a 409.
  const candidates = body.slug ? [body.slug] : [slugOf(body.name), `${slugOf(body.name).slice(0, 32)}-${randomBytes(3).toString("hex")}`];
  for (const [index, slug] of candidates.entries()) {
    try {
      const organization = await organizations.store.create({ name: body.name, slug }, { userId: caller.user.id, role }, (trx, created) =>
        events.write(trx, {
          type: "organization.created",
          userId: caller.user.id,
          email: caller.user.email,
          actorId: caller.user.id,
          sessionId: caller.session.id,
          detail: { organizationId: created.id, role },
        }),
      );
      return json(201, { organization: organizationView(organization), role });
    } catch (error) {
      if (!isSlugClash(error)) throw error;
      if (index === candidates.length - 1) throw slugTaken(error);
    }
  }
  throw new Error("unreachable");
});

/** `GET /api/orgs`: the caller's organizations, with their role in each. */
export const listOrganizations = defineOperation("listOrganizations", async ({ services, caller }) => {
  const rows = await organizationsOf(services).store.listFor(caller.user.id);
  const items: OrganizationSummary[] = rows.map((row) => ({ id: row.id, name: row.name, slug: row.slug, role: row.role }));
  return json(200, { items });
});

/** `GET /api/orgs/<orgId>`: the organization and the caller's role in it. */
export const getOrganization = defineOperation("getOrganization", MEMBERS, async ({ request, path }) => {
  const { organizations, membership } = organizationCall(request);
  const organization = await organizations.store.find(path.orgId);
  if (!organization) throw new ApiError("NOT_FOUND");
  return json(200, { organization: organizationView(organization), role: membership?.role ?? null });
});

/** `PATCH /api/orgs/<orgId>`: renames it (the first role, or the setup role). */
export const updateOrganization = defineOperation(
  "updateOrganization",
  {
    admit: [
      admitOrganization,
      ({ services, request, caller }) => {
        const call = organizationCall(request);
        enforce(checkFirstRole(call.organizations.rules, actorOf(services.auth, caller.caller, call.membership)));
      },
    ],
  },
  async ({ request, path, body }) => {
    const { organizations } = organizationCall(request);
    try {
      const organization = await organizations.store.update(path.orgId, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.slug !== undefined ? { slug: body.slug } : {}),
      });
      if (!organization) throw new ApiError("NOT_FOUND");
      return json(200, { organization: organizationView(organization) });
    } catch (error) {
      throw isSlugClash(error) ? slugTaken(error) : error;
    }
  },
);

/** `DELETE /api/orgs/<orgId>`: once it holds no records (the first role, or the setup role). */
export const deleteOrganization = defineOperation(
  "deleteOrganization",
  {
    admit: [
      admitOrganization,
      ({ services, request, caller }) => {
        const call = organizationCall(request);
        enforce(checkFirstRole(call.organizations.rules, actorOf(services.auth, caller.caller, call.membership)));
      },
    ],
  },
  async ({ context, services, request, caller, path }) => {
    const { organizations } = organizationCall(request);
    const events = requestEvents(context, services, request);
    const outcome = await organizations.store.remove(path.orgId, organizations.tenants, (trx) =>
      events.write(trx, {
        type: "organization.deleted",
        userId: caller.user.id,
        email: caller.user.email,
        actorId: caller.user.id,
        sessionId: caller.session.id,
        detail: { organizationId: path.orgId },
      }),
    );
    if (outcome === "missing") throw new ApiError("NOT_FOUND");
    if (outcome === "not-empty") throw new ApiError("ORGANIZATION_NOT_EMPTY");
    return noContent();
  },
);

/** `GET /api/orgs/<orgId>/members?after=`: a page of members, oldest first. */
export const listMembers = defineOperation("listMembers", MEMBERS, async ({ request, path, query }) => {
  const { organizations } = organizationCall(request);
  const after = query.after === undefined ? undefined : decodeListCursor(query.after);
  if (after === null)
    throw new ApiError("INVALID_QUERY", {
      issues: [{ path: ["after"], message: "is not a cursor this API gave (use a page's nextCursor)" }],
    });
  const page = await organizations.store.members(path.orgId, { limit: query.limit ?? 20, ...(after ? { after } : {}) });
  return json(200, { items: page.rows.map(memberView), nextCursor: page.next && encodeListCursor(page.next) });
});

/** `PATCH /api/orgs/<orgId>/members/<userId>` `{ role }`: within the manager's own rank; never the last of the first role. */
export const changeMemberRole = defineOperation(
  "changeMemberRole",
  MANAGERS,
  async ({ context, services, request, caller, path, body }) => {
    const { organizations } = organizationCall(request);
    const events = requestEvents(context, services, request);
    const changed = await organizations.store.changeMembers(path.orgId, async (members) => {
      const actor = await actorNow(services, caller, members);
      enforce(checkManages(organizations.rules, actor));
      const member = await members.member(path.userId);
      if (!member) throw new ApiError("NOT_FOUND");
      enforce(checkActOnMember(organizations.rules, actor, member.role));
      enforce(checkGrant(organizations.rules, actor, body.role));
      if (member.role === body.role) return member;
      enforce(checkLastOwner(organizations.rules, member.role, body.role, await members.count(firstRoleOf(organizations.rules))));
      await members.setRole(member.userId, body.role);
      // What they invited people to, they may no longer grant: a demotion ends their pending invitations.
      if (rankBelow(organizations.rules, body.role, member.role)) await members.revokeInvitationsBy(member.userId);
      await events.write(members.trx, {
        type: "member.role_changed",
        userId: member.userId,
        email: member.email,
        actorId: caller.user.id,
        sessionId: caller.session.id,
        detail: { organizationId: path.orgId, from: member.role, to: body.role },
      });
      return { ...member, role: body.role };
    });
    if (!changed) throw new ApiError("NOT_FOUND");
    return json(200, { member: memberView(changed) });
  },
);

/** `DELETE /api/orgs/<orgId>/members/<userId>`: a manager removes a member not above them, or a member leaves. */
export const removeMember = defineOperation("removeMember", MEMBERS, async ({ context, services, request, caller, path }) => {
  const { organizations } = organizationCall(request);
  const leaving = path.userId === caller.user.id;
  const events = requestEvents(context, services, request);
  const removed = await organizations.store.changeMembers(path.orgId, async (members) => {
    const actor = await actorNow(services, caller, members);
    if (!leaving) enforce(checkManages(organizations.rules, actor));
    const member = await members.member(path.userId);
    if (!member) throw new ApiError("NOT_FOUND");
    if (!leaving) enforce(checkActOnMember(organizations.rules, actor, member.role));
    enforce(checkLastOwner(organizations.rules, member.role, null, await members.count(firstRoleOf(organizations.rules))));
    await members.remove(member.userId);
    await members.revokeInvitationsBy(member.userId);
    await events.write(members.trx, {
      type: "member.removed",
      userId: member.userId,
      email: member.email,
      actorId: caller.user.id,
      sessionId: caller.session.id,
      detail: { organizationId: path.orgId, role: member.role, left: leaving },
    });
    return true;
  });
  if (!removed) throw new ApiError("NOT_FOUND");
  return noContent();
});

/** `GET /api/orgs/<orgId>/invitations`: the pending ones, newest first. */
export const listInvitations = defineOperation("listInvitations", MANAGERS, async ({ services, request, path }) => {
  const { organizations } = organizationCall(request);
  const rows = await organizations.store.invitations(path.orgId, services.sessions.now());
  return json(200, { items: rows.map(invitationView) });
});

/**
 * `POST /api/orgs/<orgId>/invitations` `{ email, role }`: a recent sign-in (a new person's way in),
 * within the manager's rank, 30 an hour per manager; the link is e-mailed after the answer.
 */
export const inviteMember = defineOperation("inviteMember", MANAGERS, async ({ context, services, request, caller, path, body }) => {
  const { organizations, membership } = organizationCall(request);
  const mail = services.mail;
  if (!mail) throw new ApiError("MAIL_NOT_CONFIGURED");
  enforce(checkGrant(organizations.rules, actorOf(services.auth, caller.caller, membership), body.role));
  // Decided again under the organization's lock: the inviter may have been demoted meanwhile.
  const stillGrants = async (members: MemberChange) => {
    const actor = await actorNow(services, caller, members);
    enforce(checkManages(organizations.rules, actor));
    enforce(checkGrant(organizations.rules, actor, body.role));
  };
  const retryAfter = await organizations.invitationThrottle.admit(caller.user.id);
  if (retryAfter !== null) {
    throw new ApiError("TOO_MANY_ATTEMPTS", {
      message: "Too many invitations sent; try again later",
      headers: { "retry-after": String(retryAfter) },
    });
  }
  const events = requestEvents(context, services, request);
  const invited = await organizations.store.invite(
    { organizationId: path.orgId, email: body.email, role: body.role, invitedBy: caller.user.id },
    services.sessions.now(),
    stillGrants,
    (trx, invitation) =>
      events.write(trx, {
        type: "invitation.sent",
        email: invitation.email,
        actorId: caller.user.id,
        sessionId: caller.session.id,
        detail: { organizationId: path.orgId, role: invitation.role },
      }),
  );
  if (!invited) throw new ApiError("NOT_FOUND");
  mail.sendOrganizationInvitation(invited.invitation.email, invited.token, { role: body.role, lifetimeSeconds: INVITATION_TTL_SECONDS });
  return json(201, invitationView(invited.invitation));
});

/** `DELETE /api/orgs/<orgId>/invitations/<id>`: its link stops working. */
export const revokeInvitation = defineOperation("revokeInvitation", MANAGERS, async ({ request, path }) => {
  const { organizations } = organizationCall(request);
  if (!(await organizations.store.revokeInvitation(path.orgId, path.id))) throw new ApiError("NOT_FOUND");
  return noContent();
});

/**
 * `POST /api/orgs/invitations/accept` `{ token }`: the invited user joins with the invitation's
 * role (a member already keeps theirs); the invitation is spent either way.
 */
export const acceptInvitation = defineOperation("acceptInvitation", async ({ context, services, request, caller, body }) => {
  const organizations = organizationsOf(services);
  const events = requestEvents(context, services, request);
  // The account is held until the membership commits: one deleted meanwhile joins nothing.
  const joined = await organizations.store.spendInvitation(
    body.token,
    services.sessions.now(),
    caller.user.id,
    async (invitation, members) => {
      // The link was sent to one address: another account is refused, and the transaction rolls back (the link stays usable).
      if (invitation.email !== caller.user.email) {
        throw new ApiError("FORBIDDEN", { message: "This invitation was sent to another e-mail address: sign in with that one" });
      }

      const existing = await members.member(caller.user.id);
      if (existing) return { organizationId: invitation.organizationId, role: existing.role };
      await members.add(caller.user.id, invitation.role);
      const about = { userId: caller.user.id, email: caller.user.email, actorId: caller.user.id, sessionId: caller.session.id };
      const detail = { organizationId: invitation.organizationId, role: invitation.role };
      await events.write(members.trx, { type: "invitation.accepted", ...about, detail });
      await events.write(members.trx, { type: "member.added", ...about, detail });
      return { organizationId: invitation.organizationId, role: invitation.role };
    },
  );
  if (joined === "user-gone") throw invalidTokenError();
  if (!joined) throw new ApiError("INVALID_INVITATION");
  const organization = await organizations.store.find(joined.organizationId);
  if (!organization) throw new ApiError("INVALID_INVITATION");
  return json(200, { organization: organizationView(organization), role: joined.role });
});
