import type { Endpoint, EndpointFlag } from "../config/vocabulary.js";
import { EVENT_PAGE_LIMITS, EVENT_SUMMARY_WINDOWS, SECURITY_EVENT_TYPES, TOP_FAILING_ADDRESSES } from "../events/event-types.js";
import type { ErrorCode } from "../http/errors.js";
import { API_KEY_LIMITS } from "../policy/api-keys.js";
import { REUSE_GRACE_MS } from "../sessions/lifetimes.js";

/**
 * The auth endpoints, one entry each: what a browser, a page and the wizard may know of them.
 * Nothing here imports a handler, a schema library or Node, so `@domain-auth/core/policy` and the
 * wizard's first prompt can hold it. The zod bodies and answers (`schemas.ts`) and the handlers
 * (`defineOperation` in `routes/`, listed in `routes/index.ts`) are keyed by the operation ids
 * below, and the compiler asks for each. What an entry declares is enforced before its handler
 * runs (`operation.ts`).
 */

/** A method an auth endpoint answers (HEAD is answered wherever GET is). */
export type EndpointMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * Who may call an operation: `none`, anyone (a token, when sent, must still be valid); `bearer`,
 * only a caller with a valid token (401 `UNAUTHENTICATED` without one).
 */
export type CallerRequirement = "none" | "bearer";

/** A query or path parameter of an operation: a string, or a whole number written in one. */
export interface EndpointParameter {
  readonly name: string;
  /** `path` parameters are named in the entry's path as `{name}` and always required. */
  readonly in: "path" | "query";
  readonly description: string;
  /** @default "string" */
  readonly type?: "string" | "integer";
  /** The values it may take, when they are few. */
  readonly values?: readonly string[];
  /** The least and the greatest value of an `integer`. */
  readonly minimum?: number;
  readonly maximum?: number;
  /** What the server takes when it is absent. */
  readonly default?: number;
  /** The form of a `string` (a cursor's base64url): a value that does not match is 400. */
  readonly pattern?: string;
  readonly maxLength?: number;
  /** The least length of a `string`: with it, a value out of `minLength` to `maxLength` is 400 saying so. */
  readonly minLength?: number;
}

/** One method of an endpoint: how it is documented and whom it answers. */
export interface EndpointOperation {
  /** Unique across the API; also the handler's name. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly caller: CallerRequirement;
  /**
   * A `bearer` operation that also takes, as its bearer token, the `mfaToken` of a required
   * enrolment (docs/mfa.md): the only operations that token opens.
   */
  readonly enrolment?: true;
  /**
   * A sensitive action (docs/security.md#sensitive-actions): the caller's session must have signed
   * in within `AUTH_REAUTH_WINDOW`, or the body carry `currentPassword`; otherwise 403
   * `REAUTHENTICATION_REQUIRED`. An enrolment token counts as recent.
   */
  readonly recentSignIn?: true;
  /** An API key is accepted as the bearer token (docs/api-keys.md): only `me`; elsewhere a key is 403 `FORBIDDEN`. */
  readonly apiKey?: true;
  /**
   * The query parameter that names another user (`?userId=`): naming someone other than the caller
   * needs the setup role (403 `FORBIDDEN`, enforced before the rest of the query is read).
   */
  readonly setupRoleWith?: string;
  /** Only the setup role may call it: anyone else is 403 `FORBIDDEN`, before the query is read. */
  readonly setupRoleOnly?: true;
  readonly parameters?: readonly EndpointParameter[];
  readonly success: { readonly status: number; readonly description: string };
  /**
   * The codes it may answer with besides those of every request (404, 405, 503, the 401 of a bad
   * token, and 415, 413 and 400 `INVALID_BODY` when it reads a body).
   */
  readonly errors: readonly ErrorCode[];
}

/** One auth endpoint: a path under `/api/<auth>/` (or `/api/orgs/`), the flag that switches it, its methods. */
export interface EndpointEntry {
  /** Under `/api/<auth>/`, or `/api/orgs/` with `base: "orgs"`; `{name}` stands for a path parameter. */
  readonly path: string;
  /** `orgs`: the path is under `/api/orgs/` (docs/organizations.md), not the auth entity's. */
  readonly base?: "orgs";
  /**
   * `auth.endpoints.<flag>` (docs/domain-yaml.md#auth), or `totp`, `passkeys`, `mfa` of `auth.mfa`; one flag
   * may switch several endpoints. None: the endpoint exists wherever `auth.type` is `jwt`.
   */
  readonly flag?: EndpointFlag;
  readonly operations: Readonly<Partial<Record<EndpointMethod, EndpointOperation>>>;
}

const ACCEPTED = "Accepted";
const SIGNED_IN = "Signed in";
/** What a right password answers where second factors exist (docs/mfa.md). */
const PASSWORD_SIGNED_IN =
  "Signed in; or no session yet: `mfaRequired` with the `mfaToken` for `login/mfa`, or `mfaEnrollmentRequired` when the role must set up a second factor first";

const ORGANIZATION_ID = { name: "orgId", in: "path", description: "An organization's id." } as const;
const MEMBERS_ONLY =
  "Members only, and the setup role (support); 404 for anyone else, whether or not the organization exists (docs/organizations.md#who-may-do-what).";
const MANAGERS_ONLY = "Organization roles of `auth.organizations.manage`, and the setup role; another member gets 403, anyone else 404.";

/** The organization endpoints (docs/organizations.md), under `/api/orgs/`. */
const ORGANIZATION_ENDPOINTS = {
  organizations: {
    path: "",
    base: "orgs",
    flag: "organizations",
    operations: {
      GET: {
        operationId: "listOrganizations",
        summary: "Your organizations",
        description: "The organizations the caller is a member of, with their role in each, oldest membership first. Also with an API key.",
        caller: "bearer",
        apiKey: true,
        success: { status: 200, description: "The caller's organizations" },
        errors: [],
      },
      POST: {
        operationId: "createOrganization",
        summary: "Create an organization",
        description:
          "Who may: `auth.organizations.create` (global roles or `@Authenticated`). The caller becomes its first member, with the first organization role. `slug` is derived from `name` when absent; a `slug` given and taken is 409 `CONFLICT`.",
        caller: "bearer",
        success: { status: 201, description: "The organization, and the caller's role in it" },
        errors: ["FORBIDDEN", "CONFLICT"],
      },
    },
  },
  acceptInvitation: {
    path: "invitations/accept",
    base: "orgs",
    flag: "organizations",
    operations: {
      POST: {
        operationId: "acceptInvitation",
        summary: "Accept an invitation",
        description:
          "The token of an invitation's link, by the user it was sent to: the caller's e-mail must be the invitation's (403 otherwise). Single use, 7 days; an unknown, expired, used or replaced one is 400 `INVALID_INVITATION`.",
        caller: "bearer",
        success: { status: 200, description: "The organization joined, and the caller's role in it" },
        errors: ["FORBIDDEN", "INVALID_INVITATION"],
      },
    },
  },
  organization: {
    path: "{orgId}",
    base: "orgs",
    flag: "organizations",
    operations: {
      GET: {
        operationId: "getOrganization",
        summary: "An organization",
        description: `${MEMBERS_ONLY} Also with an API key.`,
        caller: "bearer",
        apiKey: true,
        parameters: [ORGANIZATION_ID],
        success: { status: 200, description: "The organization, and the caller's role in it (`null` for the setup role's support access)" },
        errors: ["NOT_FOUND"],
      },
      PATCH: {
        operationId: "updateOrganization",
        summary: "Rename an organization",
        description: "The first organization role (and the setup role). A `slug` taken is 409 `CONFLICT`.",
        caller: "bearer",
        parameters: [ORGANIZATION_ID],
        success: { status: 200, description: "The organization" },
        errors: ["FORBIDDEN", "CONFLICT", "NOT_FOUND"],
      },
      DELETE: {
        operationId: "deleteOrganization",
        summary: "Delete an organization",
        description:
          "The first organization role (and the setup role), once it holds no records of a tenant entity (409 `ORGANIZATION_NOT_EMPTY` otherwise). Its memberships and invitations go with it.",
        caller: "bearer",
        parameters: [ORGANIZATION_ID],
        success: { status: 204, description: "Deleted" },
        errors: ["FORBIDDEN", "ORGANIZATION_NOT_EMPTY", "NOT_FOUND"],
      },
    },
  },
  members: {
    path: "{orgId}/members",
    base: "orgs",
    flag: "organizations",
    operations: {
      GET: {
        operationId: "listMembers",
        summary: "An organization's members",
        description: `${MEMBERS_ONLY} Oldest member first, paged by \`after\` a page's \`nextCursor\`.`,
        caller: "bearer",
        parameters: [
          ORGANIZATION_ID,
          {
            name: "limit",
            in: "query",
            type: "integer",
            minimum: 1,
            maximum: 100,
            default: 20,
            description: "How many members a page holds.",
          },
          {
            name: "after",
            in: "query",
            maxLength: 200,
            pattern: "^[A-Za-z0-9_-]+$",
            description: "A page's `nextCursor`: the page after it.",
          },
        ],
        success: { status: 200, description: "A page of members" },
        errors: ["INVALID_QUERY", "NOT_FOUND"],
      },
    },
  },
  member: {
    path: "{orgId}/members/{userId}",
    base: "orgs",
    flag: "organizations",
    operations: {
      PATCH: {
        operationId: "changeMemberRole",
        summary: "Change a member's role",
        description:
          "Managers: never to a role above their own, nor for a member above them; only the first role grants the first role. 409 `LAST_OWNER` when no member would keep the first role.",
        caller: "bearer",
        parameters: [ORGANIZATION_ID, { name: "userId", in: "path", description: "The member's user id." }],
        success: { status: 200, description: "The member" },
        errors: ["FORBIDDEN", "LAST_OWNER", "NOT_FOUND"],
      },
      DELETE: {
        operationId: "removeMember",
        summary: "Remove a member, or leave",
        description:
          "Managers remove members not above them; any member removes themself (leaving). 409 `LAST_OWNER` when no member would keep the first role.",
        caller: "bearer",
        parameters: [ORGANIZATION_ID, { name: "userId", in: "path", description: "The member's user id." }],
        success: { status: 204, description: "Removed" },
        errors: ["FORBIDDEN", "LAST_OWNER", "NOT_FOUND"],
      },
    },
  },
  invitations: {
    path: "{orgId}/invitations",
    base: "orgs",
    flag: "organizations",
    operations: {
      GET: {
        operationId: "listInvitations",
        summary: "Pending invitations",
        description: `${MANAGERS_ONLY} Newest first; expired ones are not listed.`,
        caller: "bearer",
        parameters: [ORGANIZATION_ID],
        success: { status: 200, description: "The pending invitations" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
      POST: {
        operationId: "inviteMember",
        summary: "Invite someone by e-mail",
        description: `${MANAGERS_ONLY} A recent sign-in (a new person's way into the organization's records). Sends \`<APP_URL>/invitations?token=…\`; a pending invitation for the same e-mail is replaced. No role above the manager's own; only the first role invites to the first role. 409 \`MAIL_NOT_CONFIGURED\` where the server sends no e-mail.`,
        caller: "bearer",
        recentSignIn: true,
        parameters: [ORGANIZATION_ID],
        success: { status: 201, description: "The invitation (never its token)" },
        errors: ["FORBIDDEN", "REAUTHENTICATION_REQUIRED", "MAIL_NOT_CONFIGURED", "TOO_MANY_ATTEMPTS", "NOT_FOUND"],
      },
    },
  },
  invitation: {
    path: "{orgId}/invitations/{id}",
    base: "orgs",
    flag: "organizations",
    operations: {
      DELETE: {
        operationId: "revokeInvitation",
        summary: "Revoke an invitation",
        description: `${MANAGERS_ONLY} Its link stops working.`,
        caller: "bearer",
        parameters: [ORGANIZATION_ID, { name: "id", in: "path", description: "An invitation's id." }],
        success: { status: 204, description: "Revoked" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
    },
  },
} as const satisfies Record<string, EndpointEntry>;

/** Every auth and session endpoint (docs/api.md#login, docs/api.md#sessions, docs/mail.md, docs/mfa.md), in the order the document lists them. */
export const AUTH_ENDPOINTS = {
  login: {
    path: "login",
    flag: "login",
    operations: {
      POST: {
        operationId: "login",
        summary: "Sign in",
        description:
          "Starts a session: an access token and a refresh token. Repeated failures lock the email (and the client address) for a while: 429 with `Retry-After`. A user with a second factor gets an `mfaToken` for `login/mfa` instead.",
        caller: "none",
        success: { status: 200, description: PASSWORD_SIGNED_IN },
        errors: ["INVALID_CREDENTIALS", "EMAIL_NOT_VERIFIED", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  loginMfa: {
    path: "login/mfa",
    flag: "mfa",
    operations: {
      POST: {
        operationId: "loginMfa",
        summary: "Finish a sign-in with a second factor",
        description:
          "After login answered `mfaRequired`: its `mfaToken` with a code of the authenticator app, a recovery code, or a passkey's answer to `login/passkey/options` (called with the `mfaToken`). Wrong codes and refused passkeys count as failed logins for the email (429 with `Retry-After` after 5); a code is accepted once, and the `mfaToken` works once, for 5 minutes.",
        caller: "none",
        success: { status: 200, description: SIGNED_IN },
        errors: ["INVALID_MFA_TOKEN", "INVALID_MFA_CODE", "INVALID_PASSKEY", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  loginPasskeyOptions: {
    path: "login/passkey/options",
    flag: "passkeys",
    operations: {
      POST: {
        operationId: "loginPasskeyOptions",
        summary: "Start a sign-in with a passkey",
        description:
          "The options for `startAuthentication()` of `@simplewebauthn/browser`: any passkey of this site (discoverable credentials), or, with the `mfaToken` of a login, that user's passkeys for the second step. User verification is required; the challenge works once, for 2 minutes.",
        caller: "none",
        success: { status: 200, description: "The options of `navigator.credentials.get()`, as JSON" },
        errors: ["INVALID_MFA_TOKEN"],
      },
    },
  },
  loginPasskey: {
    path: "login/passkey",
    flag: "passkeys",
    operations: {
      POST: {
        operationId: "loginPasskey",
        summary: "Sign in with a passkey",
        description:
          "The passkey's answer to the options of `login/passkey/options`: a session starts, as with login (a passkey is two factors: no `mfaToken` follows). Refused answers count as failed logins for the passkey's user.",
        caller: "none",
        success: { status: 200, description: SIGNED_IN },
        errors: ["INVALID_PASSKEY", "EMAIL_NOT_VERIFIED", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  register: {
    path: "register",
    flag: "register",
    operations: {
      POST: {
        operationId: "register",
        summary: "Create an account",
        description: "A new user with the default role. `role` and other keys that are not fields are ignored.",
        caller: "none",
        success: { status: 201, description: "The new user" },
        errors: ["EMAIL_TAKEN", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  me: {
    path: "me",
    flag: "me",
    operations: {
      GET: {
        operationId: "me",
        summary: "Your profile",
        description: "Also with an API key, whatever its scopes: the key's user.",
        caller: "bearer",
        apiKey: true,
        success: { status: 200, description: "The caller's profile" },
        errors: [],
      },
    },
  },
  providers: {
    path: "providers",
    operations: {
      GET: {
        operationId: "listProviders",
        summary: "The providers you may sign in with",
        description:
          "Google, GitHub, Microsoft, GitLab or any OpenID provider `auth.providers` declares, in its order (docs/providers.md): each a `GET oauth/<id>` link. An empty list when there are none.",
        caller: "none",
        success: { status: 200, description: "The providers" },
        errors: [],
      },
    },
  },
  providerSignIn: {
    path: "oauth/{provider}",
    flag: "providers",
    operations: {
      GET: {
        operationId: "startProviderSignIn",
        summary: "Sign in with a provider",
        description:
          "A browser navigation (a link on the sign-in page): 302 to the provider's sign-in page, with the code flow's `state`, PKCE (S256) and, for OpenID providers, a `nonce`; sets the HttpOnly flow cookie that binds the flow to this browser for 10 minutes (docs/providers.md#the-flow).",
        caller: "none",
        parameters: [
          { name: "provider", in: "path", description: "A provider's id in `auth.providers`." },
          { name: "next", in: "query", description: "Where to go once signed in: a path of this site (else `/profile`)." },
        ],
        success: { status: 302, description: "To the provider" },
        errors: [],
      },
    },
  },
  providerCallback: {
    path: "oauth/{provider}/callback",
    flag: "providers",
    operations: {
      GET: {
        operationId: "providerCallback",
        summary: "Come back from a provider",
        description:
          "Where the provider sends the browser back: the flow cookie and `state` are checked (single use), the code is exchanged and the ID token checked, then the person is signed in, signed up or their account linked, as docs/providers.md#who-signs-in says. Never answers JSON: 302 to `next` with the session cookies, to `/login`'s second step, to `/profile` after a link, or to `/login?error=<CODE>`.",
        caller: "none",
        parameters: [
          { name: "provider", in: "path", description: "A provider's id in `auth.providers`." },
          { name: "code", in: "query", description: "The authorization code." },
          { name: "state", in: "query", description: "The flow's state, as it was sent." },
          { name: "error", in: "query", description: "The provider's error: `access_denied` when the person cancelled." },
        ],
        success: { status: 302, description: "Back to the app" },
        errors: [],
      },
    },
  },
  identities: {
    path: "identities",
    flag: "providers",
    operations: {
      GET: {
        operationId: "listIdentities",
        summary: "Your connected accounts",
        caller: "bearer",
        success: { status: 200, description: "The accounts at providers linked to the caller, oldest first" },
        errors: [],
      },
    },
  },
  identity: {
    path: "identities/{id}",
    flag: "providers",
    operations: {
      POST: {
        operationId: "linkIdentity",
        summary: "Connect an account at a provider",
        description:
          "Starts a flow that links the caller's account at the provider (`id`: its id in `auth.providers`) and never signs anyone in: answers the `url` to navigate to, and sets the flow cookie. The callback comes back to `/profile`; an account already linked to someone else is `IDENTITY_TAKEN` there.",
        caller: "bearer",
        recentSignIn: true,
        parameters: [{ name: "id", in: "path", description: "A provider's id in `auth.providers`." }],
        success: { status: 200, description: "Where to navigate" },
        errors: ["NOT_FOUND", "FORBIDDEN_ORIGIN", "TOO_MANY_ATTEMPTS"],
      },
      DELETE: {
        operationId: "unlinkIdentity",
        summary: "Disconnect an account",
        description:
          "Unlinks one of the caller's accounts (`id`: an identity's id from `GET identities`). Never the last way in: 409 `LAST_SIGN_IN_METHOD` while the user has no password, no passkey and no other account.",
        caller: "bearer",
        parameters: [{ name: "id", in: "path", description: "An identity's id." }],
        success: { status: 204, description: "Disconnected" },
        errors: ["NOT_FOUND", "LAST_SIGN_IN_METHOD"],
      },
    },
  },
  setup: {
    path: "setup",
    flag: "setup",
    operations: {
      GET: {
        operationId: "setupStatus",
        summary: "Whether setup is pending",
        caller: "none",
        success: {
          status: 200,
          description: "`setupRequired` until the first user exists; `setupTokenRequired` while it is and the server needs a setup token",
        },
        errors: [],
      },
      POST: {
        operationId: "setup",
        summary: "Create the first administrator",
        description:
          "Creates the first user, with the setup role, and signs them in. 409 once any user exists. When `auth.mfa.required` lists the setup role, answers an enrolment `mfaToken` instead of a session.",
        caller: "none",
        success: { status: 201, description: "The administrator, signed in" },
        errors: ["FORBIDDEN", "SETUP_COMPLETE"],
      },
    },
  },
  logout: {
    path: "logout",
    flag: "logout",
    operations: {
      POST: {
        operationId: "logout",
        summary: "Sign out",
        description: "Revokes the caller's session: its access and refresh tokens stop working on every instance. Any body is ignored.",
        caller: "bearer",
        success: { status: 204, description: "Signed out" },
        errors: [],
      },
    },
  },
  refresh: {
    path: "refresh",
    flag: "refresh",
    operations: {
      POST: {
        operationId: "refresh",
        summary: "Renew the tokens",
        description: `Spends the refresh token and issues a new pair. A spent token presented again revokes its session (but within ${REUSE_GRACE_MS / 1000} seconds of its rotation).`,
        caller: "none",
        success: { status: 200, description: "New tokens and the user as they are now" },
        errors: ["INVALID_REFRESH_TOKEN"],
      },
    },
  },
  sessions: {
    path: "sessions",
    flag: "sessions",
    operations: {
      GET: {
        operationId: "listSessions",
        summary: "Your signed-in sessions, or a user's",
        description:
          "Without `userId`: the caller's live sessions, `current` marking the one of the token used. With `userId`: that user's (setup role only; 404 for an unknown user), `current` false; never a token.",
        caller: "bearer",
        setupRoleWith: "userId",
        parameters: [{ name: "userId", in: "query", description: "List this user's sessions (setup role only)." }],
        success: { status: 200, description: "The active sessions, newest first" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
      DELETE: {
        operationId: "revokeSessions",
        summary: "Sign out other sessions, or a user everywhere",
        description:
          "Without `userId`: revokes every session of the caller but the current one. With `userId`: every session of that user (setup role only).",
        caller: "bearer",
        setupRoleWith: "userId",
        parameters: [{ name: "userId", in: "query", description: "Sign this user out everywhere." }],
        success: { status: 204, description: "Revoked" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
    },
  },
  session: {
    path: "sessions/{id}",
    flag: "sessions",
    operations: {
      DELETE: {
        operationId: "revokeSession",
        summary: "Sign out one session",
        caller: "bearer",
        parameters: [{ name: "id", in: "path", description: "A session's id." }],
        success: { status: 204, description: "Revoked" },
        errors: ["NOT_FOUND"],
      },
    },
  },
  forgotPassword: {
    path: "forgot-password",
    flag: "passwordReset",
    operations: {
      POST: {
        operationId: "forgotPassword",
        summary: "E-mail a password reset link",
        description:
          "202 for every well-formed email, known or not; a known user is e-mailed a link to `/reset-password`. Exists only where the server sends e-mail.",
        caller: "none",
        success: { status: 202, description: ACCEPTED },
        errors: ["TOO_MANY_ATTEMPTS"],
      },
    },
  },
  resetPassword: {
    path: "reset-password",
    flag: "passwordReset",
    operations: {
      POST: {
        operationId: "resetPassword",
        summary: "Choose a new password with a reset or invitation link's token",
        description:
          "Signs in, revokes every other session of the user and marks the email verified. A token works once. A user with a second factor keeps it and gets an `mfaToken` for `login/mfa` instead of a session.",
        caller: "none",
        success: { status: 200, description: PASSWORD_SIGNED_IN },
        errors: ["INVALID_RESET_TOKEN"],
      },
    },
  },
  verifyEmail: {
    path: "verify-email",
    flag: "verifyEmail",
    operations: {
      POST: {
        operationId: "verifyEmail",
        summary: "Confirm an email address with a verification link's token",
        caller: "none",
        success: { status: 200, description: "Confirmed" },
        errors: ["INVALID_VERIFICATION_TOKEN"],
      },
    },
  },
  resendVerification: {
    path: "resend-verification",
    flag: "verifyEmail",
    operations: {
      POST: {
        operationId: "resendVerification",
        summary: "E-mail a new verification link",
        description: "202 for every well-formed email, known or not.",
        caller: "none",
        success: { status: 202, description: ACCEPTED },
        errors: ["TOO_MANY_ATTEMPTS"],
      },
    },
  },
  totp: {
    path: "mfa/totp",
    flag: "totp",
    operations: {
      GET: {
        operationId: "totpStatus",
        summary: "Whether two-step verification is on",
        description:
          "`enabled` while TOTP is on (a pending secret is not), and how many unused recovery codes are left (0 while off); never the secret nor a code. The setup role may read another user's with `userId` (404 for an unknown user).",
        caller: "bearer",
        setupRoleWith: "userId",
        parameters: [{ name: "userId", in: "query", description: "Read this user's status (setup role only)." }],
        success: { status: 200, description: "The status" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
      POST: {
        operationId: "startTotp",
        summary: "Set up an authenticator app",
        description:
          "The pending secret, its `otpauth://` URI and a QR code of it (SVG): the only answer that ever holds the secret. Starting again within 5 minutes answers the same secret; later, a new one replaces it. Confirm it with a code within 10 minutes of its start. 409 while TOTP is on.",
        caller: "bearer",
        enrolment: true,
        recentSignIn: true,
        success: { status: 200, description: "A pending secret" },
        errors: ["REAUTHENTICATION_REQUIRED", "TOO_MANY_ATTEMPTS", "CONFLICT"],
      },
      DELETE: {
        operationId: "disableTotp",
        summary: "Turn two-step verification off",
        description:
          "Needs the current password and a current code (403 when either is wrong; they count as a failed login). Removes the secret and the recovery codes, and signs out every other session.",
        caller: "bearer",
        success: { status: 204, description: "Two-step verification is off" },
        errors: ["FORBIDDEN", "NOT_FOUND", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  confirmTotp: {
    path: "mfa/totp/confirm",
    flag: "totp",
    operations: {
      POST: {
        operationId: "confirmTotp",
        summary: "Turn two-step verification on",
        description:
          "A code of the pending secret turns TOTP on and answers ten recovery codes, shown only here; every other session is signed out. With the `mfaToken` of a required enrolment as the bearer token, the answer also signs in, as login does.",
        caller: "bearer",
        enrolment: true,
        success: { status: 200, description: "Two-step verification is on" },
        errors: ["TOO_MANY_ATTEMPTS", "CONFLICT"],
      },
    },
  },
  recoveryCodes: {
    path: "mfa/recovery-codes",
    flag: "totp",
    operations: {
      POST: {
        operationId: "regenerateRecoveryCodes",
        summary: "New recovery codes",
        description: "Needs the current password. Ten new recovery codes, shown only here; the old ones stop working.",
        caller: "bearer",
        success: { status: 200, description: "The new recovery codes" },
        errors: ["FORBIDDEN", "CONFLICT", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  passkeyOptions: {
    path: "passkeys/options",
    flag: "passkeys",
    operations: {
      POST: {
        operationId: "passkeyOptions",
        summary: "Start adding a passkey",
        description:
          "The options for `startRegistration()` of `@simplewebauthn/browser`: a discoverable credential with user verification, none of the caller's passkeys again. The challenge works once, for 2 minutes.",
        caller: "bearer",
        enrolment: true,
        recentSignIn: true,
        success: { status: 200, description: "The options of `navigator.credentials.create()`, as JSON" },
        errors: ["REAUTHENTICATION_REQUIRED", "TOO_MANY_ATTEMPTS"],
      },
    },
  },
  passkeys: {
    path: "passkeys",
    flag: "passkeys",
    operations: {
      GET: {
        operationId: "listPasskeys",
        summary: "Your passkeys, or a user's",
        description:
          "Names, when each was added and last used; never a credential or its public key. The setup role may list another user's with `userId` (404 for an unknown user).",
        caller: "bearer",
        setupRoleWith: "userId",
        parameters: [{ name: "userId", in: "query", description: "List this user's passkeys (setup role only)." }],
        success: { status: 200, description: "The passkeys, oldest first" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
      POST: {
        operationId: "addPasskey",
        summary: "Add a passkey",
        description:
          "The authenticator's answer to the options of `passkeys/options`. Every other session is signed out. With the `mfaToken` of a required enrolment as the bearer token, the answer also signs in, as login does.",
        caller: "bearer",
        enrolment: true,
        success: { status: 201, description: "The passkey" },
        errors: ["CONFLICT"],
      },
    },
  },
  passkey: {
    path: "passkeys/{id}",
    flag: "passkeys",
    operations: {
      DELETE: {
        operationId: "removePasskey",
        summary: "Remove a passkey",
        description:
          "Every other session is signed out. Never the last way in: 409 `LAST_SIGN_IN_METHOD` for the last passkey of a user with no password and no connected account.",
        caller: "bearer",
        parameters: [{ name: "id", in: "path", description: "A passkey's id." }],
        success: { status: 204, description: "Removed" },
        errors: ["NOT_FOUND", "LAST_SIGN_IN_METHOD"],
      },
    },
  },
  events: {
    path: "events",
    operations: {
      GET: {
        operationId: "listEvents",
        summary: "Security events",
        description: `The security events (sign-ins, failed attempts, sign-outs, credential, role and second-factor changes…), newest first, ${EVENT_PAGE_LIMITS.default} to a page unless \`limit\` says otherwise (at most ${EVENT_PAGE_LIMITS.max}); pass a page's \`nextCursor\` as \`before\` for the next one. The setup role sees everyone's, or one user's with \`userId\`; anyone else sees only their own (403 for another \`userId\`). Never holds a password, token, code or hash.`,
        caller: "bearer",
        setupRoleWith: "userId",
        parameters: [
          { name: "userId", in: "query", description: "Only this user's events (the setup role; others may name only themselves)." },
          { name: "type", in: "query", description: "Only events of this type.", values: SECURITY_EVENT_TYPES },
          { name: "before", in: "query", description: "The `nextCursor` of the previous page." },
          {
            name: "limit",
            in: "query",
            type: "integer",
            minimum: 1,
            maximum: EVENT_PAGE_LIMITS.max,
            description: `Events on the page, 1 to ${EVENT_PAGE_LIMITS.max} (default ${EVENT_PAGE_LIMITS.default}).`,
          },
        ],
        success: { status: 200, description: "A page of events, newest first" },
        errors: ["INVALID_QUERY", "FORBIDDEN"],
      },
    },
  },
  eventSummary: {
    path: "events/summary",
    operations: {
      GET: {
        operationId: "summarizeEvents",
        summary: "Sign-ins and failed attempts over time",
        description: `Per hour over the last 24 hours (\`window=24h\`, the default), or per UTC day over the last 7 days (\`7d\`): every bucket, oldest first, zeros included, the last one holding now. \`signIns\` counts sessions started (\`login.succeeded\`: a sign-in with a second factor counts once), \`failures\` failed attempts (\`login.failed\`, \`mfa.failed\`); \`topFailingAddresses\` the ${TOP_FAILING_ADDRESSES} client addresses with the most failures in the window. Counts only: never an event's details.`,
        caller: "bearer",
        setupRoleOnly: true,
        parameters: [
          {
            name: "window",
            in: "query",
            description: "`24h` (hourly buckets, the default) or `7d` (UTC days).",
            values: EVENT_SUMMARY_WINDOWS,
          },
        ],
        success: { status: 200, description: "The buckets and the addresses with the most failures" },
        errors: ["INVALID_QUERY", "FORBIDDEN"],
      },
    },
  },
  apiKeys: {
    path: "api-keys",
    operations: {
      GET: {
        operationId: "listApiKeys",
        summary: "Your API keys",
        description: "Oldest first; never a key itself. The setup role may list another user's with `userId`.",
        caller: "bearer",
        setupRoleWith: "userId",
        parameters: [{ name: "userId", in: "query", description: "List this user's keys (setup role only)." }],
        success: { status: 200, description: "The keys" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
      POST: {
        operationId: "createApiKey",
        summary: "Create an API key",
        description: `A key for programs that call the API as you (\`Authorization: Bearer da_…\`): \`me\` and the entity operations, with your role as it is when the key is used, narrowed to \`scopes\` when given. The key is shown only in this answer. Needs a signed-in session: an API key cannot make keys (403). At most ${API_KEY_LIMITS.maxKeysPerUser} keys per user (409).`,
        caller: "bearer",
        recentSignIn: true,
        success: { status: 201, description: "The key, shown only here" },
        errors: ["FORBIDDEN", "REAUTHENTICATION_REQUIRED", "TOO_MANY_ATTEMPTS", "CONFLICT"],
      },
    },
  },
  apiKey: {
    path: "api-keys/{id}",
    operations: {
      DELETE: {
        operationId: "revokeApiKey",
        summary: "Revoke an API key",
        description: "It stops working at once. The setup role may revoke anyone's.",
        caller: "bearer",
        parameters: [{ name: "id", in: "path", description: "A key's id." }],
        success: { status: 204, description: "Revoked" },
        errors: ["FORBIDDEN", "NOT_FOUND"],
      },
    },
  },
  ...ORGANIZATION_ENDPOINTS,
} as const satisfies Record<string, EndpointEntry>;

/** Whether an endpoint exists with these flags on: its flag is, or it has none (it exists wherever auth does). */
export function isServed(entry: EndpointEntry, flags: Readonly<Record<EndpointFlag, boolean>>): boolean {
  return entry.flag === undefined || flags[entry.flag];
}

/**
 * Whether each flag is on for a domain: its `auth.endpoints`, `totp`, `passkeys` and `mfa`
 * (either of them) from `auth.mfa`, `providers` while `auth.providers` declares any, and
 * `organizations` with `auth.organizations`.
 * @example endpointFlagsOf(model.auth).totp // true unless auth.mfa.totp is false
 */
export function endpointFlagsOf(auth: {
  readonly endpoints: Readonly<Record<Endpoint, boolean>>;
  readonly mfa: { readonly totp: boolean; readonly passkeys: boolean };
  readonly providers: readonly unknown[];
  readonly organizations: unknown;
}): Record<EndpointFlag, boolean> {
  const { totp, passkeys } = auth.mfa;
  return {
    ...auth.endpoints,
    totp,
    passkeys,
    mfa: totp || passkeys,
    providers: auth.providers.length > 0,
    organizations: auth.organizations !== null && auth.organizations !== undefined,
  };
}

/** An auth endpoint by its name in {@link AUTH_ENDPOINTS}. */
export type AuthRoute = keyof typeof AUTH_ENDPOINTS;

type Operations<R extends AuthRoute> = (typeof AUTH_ENDPOINTS)[R]["operations"];

type OperationIdsOf<R extends AuthRoute> = {
  [M in keyof Operations<R>]: Operations<R>[M] extends { operationId: infer Id } ? Id : never;
}[keyof Operations<R>];

/** The id of every auth operation: `login`, `setupStatus`, `revokeSession`… */
export type AuthOperationId = { [R in AuthRoute]: OperationIdsOf<R> }[AuthRoute];

type PathOf<Id extends AuthOperationId> = {
  [R in AuthRoute]: Id extends OperationIdsOf<R> ? (typeof AUTH_ENDPOINTS)[R]["path"] : never;
}[AuthRoute];
type ParameterNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParameterNames<Rest> : never;

/** The path parameters of an operation, named as its entry's path names them: `{ id }` for `sessions/{id}`. */
export type PathParametersOf<Id extends AuthOperationId> = { readonly [Name in ParameterNames<PathOf<Id>>]: string };

/** The endpoints whose path has no parameter: each is one fixed path. */
export type FixedAuthRoute = {
  [R in AuthRoute]: (typeof AUTH_ENDPOINTS)[R]["path"] extends `${string}{${string}` ? never : R;
}[AuthRoute];

/** One operation of the catalog with the entry it belongs to. */
export interface CatalogOperation {
  readonly route: AuthRoute;
  readonly entry: EndpointEntry;
  readonly method: EndpointMethod;
  readonly operation: EndpointOperation & { readonly operationId: AuthOperationId };
}

/** Every operation of {@link AUTH_ENDPOINTS}, entry by entry, in order. */
export function catalogOperations(): CatalogOperation[] {
  return (Object.entries(AUTH_ENDPOINTS) as [AuthRoute, EndpointEntry][]).flatMap(([route, entry]) =>
    (Object.entries(entry.operations) as [EndpointMethod, CatalogOperation["operation"]][]).map(([method, operation]) => ({
      route,
      entry,
      method,
      operation,
    })),
  );
}

/** What each `auth.endpoints` flag switches, in a few words (the wizard's hints). */
export const ENDPOINT_HINTS: Readonly<Record<Endpoint, string>> = {
  login: "email and password → token",
  register: "anyone can sign up",
  me: "the caller's profile",
  setup: "creates the first administrator",
  logout: "revokes the caller's session",
  refresh: "refresh token → new token pair",
  sessions: "signed-in devices; sign them out",
  passwordReset: "a new password through a link by e-mail",
  verifyEmail: "confirm an e-mail address through a link",
};
