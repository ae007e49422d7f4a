import { requireUser } from "../accounts/authenticate.js";
import type { AuthServices, RouteContext } from "../context.js";
import { decodeCursor, type EventPosition } from "../events/cursor.js";
import { EVENT_PAGE_LIMITS, isSecurityEventType, type SecurityEventType } from "../events/event-types.js";
import type { ApiRequest } from "../http/api-request.js";
import { ApiError, type Issue } from "../http/errors.js";
import { json, type Reply } from "../http/responses.js";
import { checkEventReader, eventSubject } from "../policy/events.js";
import { enforce } from "./access.js";

/** The query of `GET events`, checked. */
interface EventsQuery {
  readonly type?: SecurityEventType;
  readonly before?: EventPosition;
  readonly limit: number;
}

/**
 * Reads `type`, `before` and `limit`.
 * @throws {ApiError} 400 `INVALID_QUERY` with one issue per parameter that cannot be used.
 */
function parseEventsQuery(params: URLSearchParams): EventsQuery {
  const issues: Issue[] = [];
  const type = params.get("type");
  if (type !== null && !isSecurityEventType(type)) issues.push({ path: ["type"], message: "is not a type of security event" });
  const cursor = params.get("before");
  const before = cursor === null ? null : decodeCursor(cursor);
  if (cursor !== null && before === null) issues.push({ path: ["before"], message: "is not a cursor this server gave" });
  const rawLimit = params.get("limit");
  const limit = rawLimit === null ? EVENT_PAGE_LIMITS.default : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  if (!(limit >= 1 && limit <= EVENT_PAGE_LIMITS.max))
    issues.push({ path: ["limit"], message: `must be a whole number from 1 to ${EVENT_PAGE_LIMITS.max}` });
  if (issues.length > 0) throw new ApiError("INVALID_QUERY", { issues });
  return { limit, ...(type !== null ? { type: type as SecurityEventType } : {}), ...(before ? { before } : {}) };
}

/**
 * `GET /api/<auth>/events?userId=&type=&before=&limit=`: a page of security events, newest first,
 * with the cursor of the next page. The setup role reads everyone's, or one user's; anyone else
 * only their own (403 for another `userId`, decided before the rest of the query is read).
 */
export async function listEvents(context: RouteContext, services: AuthServices, request: ApiRequest): Promise<Reply> {
  const { caller } = await requireUser(context, request);
  const params = new URL(request.url).searchParams;
  const userId = params.get("userId");
  enforce(checkEventReader(services.auth, caller, userId));
  const query = parseEventsQuery(params);
  const subject = eventSubject(services.auth, caller, userId);
  const page = await services.events.page({ ...query, ...(subject !== null ? { userId: subject } : {}) });
  return json(200, page);
}
