import { defineOperation } from "../endpoints/operation.js";
import { decodeCursor, type EventPosition } from "../events/cursor.js";
import { summarizeEvents as summaryOf } from "../events/event-summary.js";
import { EVENT_PAGE_LIMITS } from "../events/event-types.js";
import { ApiError } from "../http/errors.js";
import { json } from "../http/responses.js";
import { eventSubject } from "../policy/events.js";

/** The position `before` names; 400 `INVALID_QUERY` for a cursor this server did not give. */
function cursorOf(before: string | undefined): EventPosition | null {
  if (before === undefined) return null;
  const position = decodeCursor(before);
  if (position === null)
    throw new ApiError("INVALID_QUERY", { issues: [{ path: ["before"], message: "is not a cursor this server gave" }] });
  return position;
}

/**
 * `GET /api/<auth>/events?userId=&type=&before=&limit=`: a page of security events, newest first,
 * with the cursor of the next page. The setup role reads everyone's, or one user's; anyone else
 * only their own (403 for another `userId`, decided before the rest of the query is read).
 */
export const listEvents = defineOperation("listEvents", async ({ services, caller: { caller }, query }) => {
  const before = cursorOf(query.before);
  const subject = eventSubject(services.auth, caller, query.userId ?? null);
  const page = await services.events.page({
    limit: query.limit ?? EVENT_PAGE_LIMITS.default,
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(before ? { before } : {}),
    ...(subject !== null ? { userId: subject } : {}),
  });
  return json(200, page);
});

/**
 * `GET /api/<auth>/events/summary?window=24h|7d`: everyone's sign-ins and failed sign-in attempts
 * per hour of the last 24 hours (the default) or per UTC day of the last 7, and the client addresses
 * with the most failures; counted by the database. Setup role only: its entry's `setupRoleOnly`.
 */
export const summarizeEvents = defineOperation("summarizeEvents", async ({ services, query }) => {
  const { events } = services;
  return json(200, await summaryOf(events.store.database.db, query.window ?? "24h", events.now()));
});
