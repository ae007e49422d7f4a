import type { z } from "zod";
import type { ApiRequest } from "./api-request.js";
import { readJsonObject } from "./body.js";
import { ApiError, type Issue } from "./errors.js";

/** A schema's problems as the API reports them: one issue per problem, one per key a body may not carry. */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    const path = issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({ path: [...path, key], message: "is not a field you can set" }));
    return [{ path, message: issue.message }];
  });
}

/**
 * Validates a body against a route's schema.
 *
 * @throws {ApiError} `INVALID_BODY` with one issue per problem.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: Record<string, unknown>): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError("INVALID_BODY", { issues: issuesOf(parsed.error) });
}

/**
 * Reads a request's JSON object body ({@link readJsonObject}: 415, 413, 400) and validates it
 * against `schema` ({@link parseBody}: 400 `INVALID_BODY`).
 */
export async function readBody<T>(request: ApiRequest, schema: z.ZodType<T>): Promise<T> {
  return parseBody(schema, await readJsonObject(request));
}
