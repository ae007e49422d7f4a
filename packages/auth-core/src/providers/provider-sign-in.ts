import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { createUser } from "../accounts/create-user.js";
import { aboutUser, byUser, type RequestEvents } from "../accounts/security-events.js";
import type { EntityModel } from "../config/index.js";
import type { AuthServices, RouteContext } from "../context.js";
import { emailProblem, normalizeEmail } from "../records/email.js";
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

/** A provider's e-mail as the store writes it, and whether the provider vouches for exactly that address. */
interface VouchedEmail {
  readonly address: string;
  readonly vouched: boolean;
}

/**
 * The provider's e-mail, normalized as the store keeps addresses. It is vouched for only when the
 * provider vouches for it, it is a well-formed address, and normalizing changed nothing but ASCII
 * case and spaces: `ａｄｍｉｎ@…` (full-width), a ligature or the Kelvin sign reaches another mailbox's
 * account once normalized, and the provider proved control of a different one.
 */
function vouchedEmail(profile: ProviderProfile, given: string): VouchedEmail {
  const address = normalizeEmail(given);
  // Case folded for ASCII letters only: Unicode's folding maps the Kelvin sign to `k` as NFKC does.
  const exact = address === given.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  return { address, vouched: profile.emailVerified && exact && emailProblem(address) === undefined };
}

/** The provider's name for the auth entity's `name` field, where it has one: cut to its `maxLength`. */
function nameFor(entity: EntityModel, name: string | null): string | null {
  const field = entity.fields.find((candidate) => candidate.name === "name" && (candidate.type === "string" || candidate.type === "text"));
  const clean = name?.replace(/\p{Cc}/gu, "").trim();
  if (!field || !clean) return null;
  return field.maxLength === undefined ? clean : [...clean].slice(0, field.maxLength).join("");
}

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
  // A password, e-mail or role change since the link started ends it, as it ends the tokens of then.
  if (!user || user.tokenVersion !== flow.tokenVersion) return refused("OAUTH_STATE");
  return writeTransaction(context.database, async (trx) => {
    // The session that asked must still be live (held until this commits): a link a stolen session
    // started dies with it when the owner signs it out.
    if (!flow.sessionId || !(await services.sessions.store.holdLive(trx, flow.sessionId, scope.now))) return refused("OAUTH_STATE");
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
async function signUp(scope: CallbackScope, provider: string, profile: ProviderProfile, email: VouchedEmail): Promise<CallbackOutcome> {
  const { context, services, events } = scope;
  const { auth } = services;
  if (!services.endpoints.register || !(await context.store.isSetupComplete())) return refused("REGISTRATION_CLOSED");
  if (!email.vouched) return refused("EMAIL_NOT_VERIFIED");
  const name = nameFor(auth.entity, profile.name);
  const values = { email: email.address, ...(name ? { name } : {}) };
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
  const email = vouchedEmail(profile, profile.email);
  const existing = await context.store.findByEmail(entity, email.address);
  if (!existing) return signUp(scope, flow.provider, profile, email);
  // A password set by someone who registered the address first must never reach its real owner's account.
  if (!email.vouched || !existing.emailVerified) {
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
