import type { Kysely } from "kysely";
import { requireUser } from "../accounts/authenticate.js";
import { enrollingCaller, factorAddedWork } from "../accounts/enrolling-caller.js";
import { writePasskeyAdded, writePasskeyRemoved } from "../accounts/passkey-events.js";
import { recentSignInBodySchema, requireRecentSignIn } from "../accounts/recent-sign-in.js";
import { requestEvents } from "../accounts/security-events.js";
import { checkTransport, signedInBody, signedInReply } from "../accounts/signed-in-body.js";
import type { AuthServices, RouteContext } from "../context.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError } from "../http/errors.js";
import { parseBody, readBody } from "../http/parse.js";
import { json, jsonWithToken, noContent, type Reply } from "../http/responses.js";
import { summaryOf } from "../mfa/passkeys.js";
import type { RelyingParty } from "../mfa/relying-party.js";
import type { AnyDB } from "../store/database.js";
import { addPasskeyBodySchema } from "./passkey-bodies.js";

/** The relying party of a request (docs/mfa.md); 400 for a request with no host to be one. */
export function requireRelyingParty(services: AuthServices, request: ApiRequest): RelyingParty {
  const rp = services.passkeys.relyingParty(request);
  if (!rp) throw new ApiError("BAD_REQUEST", { message: "Passkeys need the site's host: set APP_URL" });
  return rp;
}

/**
 * `POST /api/<auth>/passkeys/options`: the options of a new passkey for the caller (signed in, or
 * holding a required enrolment's token), with a challenge that works once. Needs a recent sign-in
 * (or `{ currentPassword }`): a stolen session must not add a factor.
 */
export async function passkeyOptions(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const caller = await enrollingCaller(context, services, request);
  parseBody(recentSignInBodySchema, await requireRecentSignIn(context, services, request, caller));
  return jsonWithToken(200, await services.passkeys.registrationOptions(caller.user, requireRelyingParty(services, request)));
}

/**
 * `POST /api/<auth>/passkeys` `{ response, name? }`: the authenticator's answer verified against
 * the caller's latest options, the passkey stored and the caller's other sessions revoked in one
 * transaction; 201 with the passkey. With an enrolment token (which this spends) the answer also
 * signs in, as login does (`transport` honoured).
 */
export async function addPasskey(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const caller = await enrollingCaller(context, services, request);
  const body = await readBody(request, addPasskeyBodySchema);
  const transport = caller.enrolment ? checkTransport(services, request, body.transport) : "body";
  const rp = requireRelyingParty(services, request);
  const events = requestEvents(context, services, request);
  const factorAdded = factorAddedWork(services, caller);
  const added = await services.passkeys.register(caller.user, body.response, rp, body.name ?? "Passkey", async (trx, row) => {
    await factorAdded(trx);
    const sessionId = caller.session?.id ?? null;
    await writePasskeyAdded(events, trx, { user: caller.user, sessionId, passkeyId: row.id, name: row.name });
  });
  if (added === "taken") throw new ApiError("CONFLICT", { message: "This passkey is registered already" });
  if (added === "refused") {
    throw new ApiError("INVALID_BODY", {
      issues: [{ path: ["response"], message: "was not accepted: answer the latest options of passkeys/options, on this site" }],
    });
  }
  const { lastUsedAt: _never, ...passkey } = summaryOf(added);
  if (!caller.enrolment) return jsonWithToken(201, passkey);
  const signedIn = await signedInBody(context, services, caller.user, request, { method: "passkey" });
  return signedInReply(services, 201, { ...passkey, ...signedIn }, transport);
}

/** `GET /api/<auth>/passkeys`: the caller's passkeys, oldest first; never a key. */
export async function listPasskeys(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { user } = await requireUser(context, request);
  return json(200, { items: await services.passkeys.listOf(user.id) });
}

/** `DELETE /api/<auth>/passkeys/<id>`: removes one of the caller's passkeys, their other sessions revoked with it; 404 for any other id. */
export async function removePasskey(
  context: RouteContext,
  services: AuthServices,
  request: ApiRequest,
  { id }: { readonly id: string },
): Promise<Reply> {
  const { user, session } = await requireUser(context, request);
  const events = requestEvents(context, services, request);
  const removed = async (trx: Kysely<AnyDB>) => {
    await services.sessions.store.revokeAllOf(user.id, services.sessions.now(), { trx, except: session.id });
    await writePasskeyRemoved(events, trx, { user, sessionId: session.id, passkeyId: id });
  };
  if (!(await services.passkeys.remove(user.id, id, removed))) throw new ApiError("NOT_FOUND");
  return noContent();
}
