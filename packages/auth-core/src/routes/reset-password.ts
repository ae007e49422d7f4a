import { byUser, requestEvents } from "../accounts/security-events.js";
import { answerSignIn, secondStepOf } from "../accounts/sign-in.js";
import { checkTransport } from "../accounts/signed-in-body.js";
import { defineOperation, roomInHashQueue } from "../endpoints/operation.js";
import { ApiError } from "../http/errors.js";
import { toStoredUser } from "../store/rows.js";

/**
 * `POST /api/<auth>/reset-password` `{ token, password }` (a reset link, or an invitation's):
 * sets the password and signs in, 200 like login. In one transaction the token is spent (of
 * simultaneous uses, one succeeds), the email marked confirmed, the token version bumped and
 * every session and API key of the user revoked; then the email's login lock is lifted and a session started,
 * or, for a user with a second factor, a second step (their factors stay as they were).
 */
export const resetPassword = defineOperation(
  "resetPassword",
  { admit: [roomInHashQueue] },
  async ({ context, services, request, body }) => {
    const { token, password } = body;
    const transport = checkTransport(services, request, body.transport);
    const entity = services.auth.entity;
    const found = await services.accountTokens.findLive(token, ["reset", "invite"], services.sessions.now());
    if (!found) throw new ApiError("INVALID_RESET_TOKEN");
    // Hashed only for a token that exists: an unknown one costs no hashing.
    const passwordHash = await services.hasher.hash(password);
    const now = services.sessions.now();
    const events = requestEvents(context, services, request);
    const record = await context.store.update(
      entity,
      found.userId,
      { passwordHash, emailVerified: 1, everVerified: 1 },
      {
        bumpTokenVersion: true,
        guard: async (trx, current) => {
          const spent = await services.accountTokens.spend(trx, found.id, now);
          if (!spent || current.email !== found.email) throw new ApiError("INVALID_RESET_TOKEN");
          await services.sessions.store.revokeAllOf(found.userId, now, { trx });
          const user = byUser({ id: found.userId, email: found.email });
          await events.write(trx, { type: "password.reset", ...user, detail: { invitation: found.kind === "invite" } });
          // A reset is the recovery path: keys a thief made with a stolen session go with the sessions.
          const subject = { userId: found.userId, email: found.email, actorId: found.userId, sessionId: null };
          for (const draft of await services.apiKeys.revokeEvery(trx, subject, "password_reset")) await events.write(trx, draft);
          // An invitation's link, or a reset of an address not confirmed yet, confirms it.
          if (Number(current.emailVerified) !== 1)
            await events.write(trx, { type: "email.verified", ...user, detail: { via: found.kind } });
        },
      },
    );
    if (!record) throw new ApiError("INVALID_RESET_TOKEN");
    const user = toStoredUser(record);
    await services.throttle.unlockEmail(user.email);
    // A reset proves the inbox, not a second factor: a user with one still answers it at login/mfa.
    const step = await secondStepOf(services, user);
    return answerSignIn(context, services, request, user, { step, status: 200, transport, method: "reset_link" });
  },
);
