import { z } from "zod";
import { MAX_EVENT_USER_AGENT_LENGTH, SECURITY_EVENT_TYPES } from "./event-types.js";

const textOrNull = z.string().nullable();

/** A security event (docs/events.md), as `GET events` answers it and `onEvent` receives it. The OpenAPI document shows this schema. */
export const securityEventSchema = z
  .object({
    id: z.string().describe("28 lower-case hex digits: the time, a sequence and random bytes."),
    at: z.string().meta({ format: "date-time" }).describe("When it happened, ISO 8601 (UTC, milliseconds)."),
    type: z.enum(SECURITY_EVENT_TYPES),
    userId: textOrNull.describe("The user it is about; `null` when no account is known (a failed login for an unknown email)."),
    actorId: textOrNull.describe("Who made it happen: the user, an administrator, or `null` (an anonymous request, a command)."),
    email: textOrNull.describe("The user's email then, or the email a refused attempt named."),
    address: textOrNull.describe("The client address, as login throttling counts it; `null` outside a request."),
    userAgent: textOrNull.describe(`The client's \`User-Agent\`, at most ${MAX_EVENT_USER_AGENT_LENGTH} characters.`),
    sessionId: textOrNull.describe("The session it started, ended, or was made from."),
    detail: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .describe("A few facts of the event (how a sign-in was made, a role's old and new value…); never a secret."),
  })
  .describe("A security event: never a password, token, code or hash.");

/** A security event, as the API answers it and `onEvent` receives it. */
export type SecurityEvent = z.output<typeof securityEventSchema>;

/** A page of events, newest first (docs/events.md). */
export const eventPageSchema = z.object({
  items: z.array(securityEventSchema),
  nextCursor: z.string().nullable().describe("Pass it as `before` for the next page; `null` on the last one."),
});

/** A page of events, newest first, and the cursor of the next one (`null` on the last page). */
export type EventPage = z.output<typeof eventPageSchema>;
