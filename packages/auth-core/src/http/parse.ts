import type { z } from "zod";
import { ApiError } from "./errors.js";

/**
 * Validates a body against a route's schema.
 *
 * @throws {ApiError} `INVALID_BODY` with one issue per problem.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: Record<string, unknown>): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError("INVALID_BODY", {
    issues: parsed.error.issues.map((issue) => ({ path: issue.path as (string | number)[], message: issue.message })),
  });
}
