import type { Kysely } from "kysely";
import { factorAddedWork } from "../accounts/enrolling-caller.js";
import { namedUser } from "../accounts/named-user.js";
import { writePasskeyAdded, writePasskeyRemoved } from "../accounts/passkey-events.js";
import { requireRelyingParty } from "../accounts/relying-party.js";
import { requestEvents } from "../accounts/security-events.js";
import { checkTransport, signedInBody, signedInReply } from "../accounts/signed-in-body.js";
import { defineOperation } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { json, jsonWithToken, noContent } from "../http/responses.js";
import { type PasskeySummary, summaryOf } from "../mfa/passkey-view.js";
import type { AnyDB } from "../store/database.js";

/**
 * `POST /api/<auth>/passkeys/options`: the options of a new passkey for the caller (signed in, or
 * holding a required enrolment's token), with a challenge that works once. Needs a recent sign-in
 * (or `{ currentPassword }`): a stolen session must not add a factor.
 */
export const passkeyOptions = defineOperation("passkeyOptions", async ({ services, request, caller }) => {
  return jsonWithToken(200, await services.passkeys.registrationOptions(caller.user, requireRelyingParty(services, request)));
});

/**
 * `POST /api/<auth>/passkeys` `{ response, name? }`: the authenticator's answer verified against
 * the caller's latest options, the passkey stored and the caller's other sessions revoked in one
 * transaction; 201 with the passkey. With an enrolment token (which this spends) the answer also
 * signs in, as login does (`transport` honoured).
 */
export const addPasskey = defineOperation("addPasskey", async ({ context, services, request, caller, body }) => {
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
  const { lastUsedAt: _never, ...passkey }: PasskeySummary = summaryOf(added);
  if (!caller.enrolment) return jsonWithToken(201, passkey);
  const signedIn = await signedInBody(context, services, caller.user, request, { method: "passkey" });
  return signedInReply(services, 201, { ...passkey, ...signedIn }, transport);
});

/**
 * `GET /api/<auth>/passkeys`: the caller's passkeys, oldest first (the setup role: anyone's with
 * `?userId=`, 404 for an unknown user); names and times, never a credential or its key.
 */
export const listPasskeys = defineOperation("listPasskeys", async ({ context, services, caller, query }) => {
  const subject = await namedUser(context, services, caller, query.userId);
  return json(200, { items: await services.passkeys.listOf(subject.id) });
});

/** `DELETE /api/<auth>/passkeys/<id>`: removes one of the caller's passkeys, their other sessions revoked with it; 404 for any other id. */
export const removePasskey = defineOperation(
  "removePasskey",
  async ({ context, services, request, caller: { user, session }, path: { id } }) => {
    const events = requestEvents(context, services, request);
    const removed = async (trx: Kysely<AnyDB>) => {
      await services.sessions.store.revokeAllOf(user.id, services.sessions.now(), { trx, except: session.id });
      await writePasskeyRemoved(events, trx, { user, sessionId: session.id, passkeyId: id });
    };
    // Never the last way in: a user without a password or a connected account keeps one passkey (docs/providers.md).
    const keepsAWayIn = async (trx: Kysely<AnyDB>) => {
      const ways = await services.providers.waysIn(trx, user.id);
      if (ways && !ways.password && ways.identities === 0 && ways.passkeys === 1) throw new ApiError("LAST_SIGN_IN_METHOD");
    };
    if (!(await services.passkeys.remove(user.id, id, removed, keepsAWayIn))) throw new ApiError("NOT_FOUND");
    return noContent();
  },
);
