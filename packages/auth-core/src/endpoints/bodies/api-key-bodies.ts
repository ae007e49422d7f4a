import { z } from "zod";
import { API_KEY_LIMITS, API_KEY_OPERATIONS } from "../../policy/api-keys.js";

/** A scope as the document describes it: any entity segment with an operation; the route checks the domain's. */
const SCOPE_PATTERN = `^[a-z0-9]+(?:-[a-z0-9]+)*:(?:${API_KEY_OPERATIONS.join("|")})$`;

/**
 * `POST api-keys`: `{ name, expiresAt?, scopes? }`. With the domain's `scopes` (each entity's
 * segment with each operation) a scope must be one of them; without, the schema the document shows.
 * No other key: a key is never carried by a cookie (`transport` is refused).
 */
export function createApiKeyBodySchema(scopes?: readonly string[]) {
  const scope = scopes
    ? z.enum(scopes as [string, ...string[]], { error: "is not a scope of this API" })
    : z.string().regex(new RegExp(SCOPE_PATTERN));
  return z.strictObject({
    name: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "is required")
      .max(API_KEY_LIMITS.maxNameLength, `must be at most ${API_KEY_LIMITS.maxNameLength} characters`)
      .refine((name) => !/\p{Cc}/u.test(name), "must not hold control characters")
      .describe("What the key is for, as lists show it."),
    expiresAt: z.iso
      .datetime({ offset: true, error: "must be a date and time (ISO 8601)" })
      .nullable()
      .optional()
      .describe("When the key stops working (ISO 8601, in the future); none: it works until revoked."),
    scopes: z
      .array(scope.describe("`<entity segment>:<operation>`, such as `post:read`"))
      .optional()
      .describe(
        "The entity operations the key may perform, within what its user's role allows; none: all of them. `me` is always allowed.",
      ),
  });
}
