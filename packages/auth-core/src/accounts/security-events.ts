import type { Kysely } from "kysely";
import type { AuthServices, RouteContext } from "../context.js";
import type { EventDraft } from "../events/event-log.js";
import type { ApiRequest } from "../http/api-request.js";
import type { AnyDB } from "../store/database.js";

/** How a session started (the `method` of a `login.succeeded` event's detail). */
export type SignInMethod = "password" | "totp" | "recovery_code" | "passkey" | "reset_link" | "provider";

/** The security events of one request: each carries its client address and `User-Agent`. */
export interface RequestEvents {
  /** Writes the event of a change in the change's transaction (both commit, or neither). */
  write(trx: Kysely<AnyDB>, draft: EventDraft): Promise<void>;
  /** Records a refused attempt once the answer is on its way. */
  later(draft: EventDraft): void;
}

/**
 * The events of a request, with the client address login throttling counts for it and its
 * `User-Agent` (cut to the length sessions keep).
 */
export function requestEvents(context: RouteContext, services: AuthServices, request: ApiRequest): RequestEvents {
  // Read when an event is recorded, not before: most requests record none.
  const client = () => ({ address: context.clientAddress(request), userAgent: request.headers.get("user-agent") });
  return {
    async write(trx, draft) {
      await services.events.write(trx, { ...client(), ...draft });
    },
    later(draft) {
      services.events.later({ ...client(), ...draft });
    },
  };
}

/** Who an event is about: the user's id and their email at the time. */
export function aboutUser(user: { readonly id: string; readonly email: string }): Pick<EventDraft, "userId" | "email"> {
  return { userId: user.id, email: user.email };
}

/** An event a user caused on their own account: about them, and by them. */
export function byUser(user: { readonly id: string; readonly email: string }): Pick<EventDraft, "userId" | "email" | "actorId"> {
  return { ...aboutUser(user), actorId: user.id };
}
