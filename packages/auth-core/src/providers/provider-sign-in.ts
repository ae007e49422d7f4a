import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { createUser } from "../accounts/create-user.js";
import { aboutUser, byUser, type RequestEvents } from "../accounts/security-events.js";
import type { AuthServices, RouteContext } from "../context.js";
import { normalizeEmail } from "../records/email.js";
import type { AnyDB } from "../store/database.js";
import type { StoredUser } from "../store/rows.js";
import { writeTransaction } from "../store/transaction.js";
import type { FlowRow, IdentityStore } from "./identity-store.js";
import type { ProviderProfile } from "./provider-client.js";
import type { ProviderError } from "./provider-errors.js";

/** Why a callback signs nobody in: the `error` of `/login?error=` (docs/providers.md#errors). */
export type ProviderRefusal = Exclude<ProviderError, "TOO_MANY_ATTEMPTS">;

/** What a callback comes to: an account linked, a user to sign in, or a refusal. */
export type CallbackOutcome =
  | { readonly kind: "linked"; readonly userId: string }
  | { readonly kind: "sign-in"; readonly user: StoredUser }
  | { readonly kind: "refused"; readonly code: ProviderRefusal };

/** What deciding a callback works with. */
export interface CallbackScope {
  readonly context: RouteContext;
  readonly services: AuthServices;
  readonly identities: IdentityStore;
  readonly events: RequestEvents;
  readonly now: number;
}

const refused = (code: ProviderRefusal): CallbackOutcome => ({ kind: "refused", code });

/** Links an identity to a user in `trx`, with its `identity.linked` event. */
async function link(
  scope: CallbackScope,
  trx: Kysely<AnyDB>,
  user: Pick<StoredUser, "id" | "email">,
  provider: string,
  profile: ProviderProfile,
) {
  await scope.identities.insert(trx, {
    id: randomUUID(),
    userId: user.id,
    provider,
    subject: profile.subject,
    email: profile.email,
    createdAt: scope.now,
  });
  await scope.events.write(trx, { type: "identity.linked", ...byUser(user), detail: { provider } });
}

/** Rule 1: a flow started from the profile links the account to its user, and signs nobody in. */
async function linkToCaller(scope: CallbackScope, flow: FlowRow, profile: ProviderProfile): Promise<CallbackOutcome> {
  const { context, services, identities } = scope;
  const user = flow.userId ? await context.store.findUser(services.auth.entity, flow.userId) : undefined;
  if (!user) return refused("OAUTH_STATE");
  return writeTransaction(context.database, async (trx) => {
    const held = await identities.findBySubject(trx, flow.provider, profile.subject);
    if (held) return held.userId === user.id ? { kind: "linked", userId: user.id } : refused("IDENTITY_TAKEN");
    await link(scope, trx, user, flow.provider, profile);
    return { kind: "linked", userId: user.id } as const;
  });
}

/**
 * Rule 4: nobody has the account or its e-mail. A user is made only where anyone may register
 * and setup is complete, only with an e-mail the provider vouches for: marked verified, with the
 * default role (never the setup role), no usable password, and the identity linked.
 */
async function signUp(scope: CallbackScope, provider: string, profile: ProviderProfile, email: string): Promise<CallbackOutcome> {
  const { context, services, events } = scope;
  const { auth } = services;
  if (!services.endpoints.register || !(await context.store.isSetupComplete())) return refused("REGISTRATION_CLOSED");
  if (!profile.emailVerified) return refused("EMAIL_NOT_VERIFIED");
  const hasName = auth.entity.fields.some((field) => field.name === "name" && (field.type === "string" || field.type === "text"));
  const values = { email, ...(hasName && profile.name ? { name: profile.name } : {}) };
  const user = await createUser(context, services, values, {
    role: auth.defaultRole,
    setup: "mark-complete",
    verified: true,
    within: async (trx, created) => {
      await events.write(trx, { type: "register", ...byUser(created), detail: { role: created.role, method: "provider", provider } });
      await link(scope, trx, created, provider, profile);
    },
  });
  return { kind: "sign-in", user };
}

/**
 * Who a callback signs in (docs/providers.md#who-signs-in), in order: a link flow only links (1); the
 * identity's user signs in (2); a user with the provider's e-mail is linked and signs in only when
 * the provider vouches for the e-mail and the account's own e-mail is verified, else
 * `ACCOUNT_EXISTS` and nothing changes (3); nobody: a sign-up (4).
 */
export async function decideCallback(scope: CallbackScope, flow: FlowRow, profile: ProviderProfile): Promise<CallbackOutcome> {
  if (flow.purpose === "link") return linkToCaller(scope, flow, profile);
  const { context, services, identities } = scope;
  const entity = services.auth.entity;
  const held = await identities.findBySubject(context.database.db, flow.provider, profile.subject);
  if (held) {
    const user = await context.store.findUser(entity, held.userId);
    return user ? { kind: "sign-in", user } : refused("OAUTH_FAILED");
  }
  if (profile.email === null) return refused("EMAIL_NOT_VERIFIED");
  const email = normalizeEmail(profile.email);
  const existing = await context.store.findByEmail(entity, email);
  if (!existing) return signUp(scope, flow.provider, profile, email);
  // A password set by someone who registered the address first must never reach its real owner's account.
  if (!profile.emailVerified || !existing.emailVerified) {
    scope.events.later({
      type: "login.failed",
      ...aboutUser(existing),
      detail: { method: "provider", provider: flow.provider, reason: "account_exists" },
    });
    return refused("ACCOUNT_EXISTS");
  }
  await writeTransaction(context.database, (trx) => link(scope, trx, existing, flow.provider, profile));
  return { kind: "sign-in", user: existing };
}
