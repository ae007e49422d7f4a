import { type JsonSchema, ref } from "../endpoints/json-schema.js";
import { ERROR_CODES, type ErrorCode } from "../http/errors.js";

/** The name of an issue's schema (one problem of a body or query). */
export const ISSUE_SCHEMA = "issue";

/** The error body (docs/api.md) for `codes`: every code of the table when none are given. */
export function errorBodySchema(codes: readonly ErrorCode[] = Object.keys(ERROR_CODES) as ErrorCode[]): JsonSchema {
  return {
    type: "object",
    properties: {
      code: { type: "string", enum: [...codes] },
      message: { type: "string", description: "A sentence for people; tests and programs read `code`." },
      issues: { type: "array", items: ref(ISSUE_SCHEMA) },
    },
    required: ["code", "message"],
  };
}

/** One problem of a body or query: where (`path`) and what. */
export const ISSUE_BODY: JsonSchema = {
  type: "object",
  properties: {
    path: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
    message: { type: "string" },
  },
  required: ["path", "message"],
};

const HEADERS_BY_CODE: Partial<Record<ErrorCode, Record<string, JsonSchema>>> = {
  UNAUTHENTICATED: {
    "WWW-Authenticate": { description: '`Bearer` (no token) or `Bearer error="invalid_token"`', schema: { type: "string" } },
  },
  TOO_MANY_ATTEMPTS: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } },
  UNAVAILABLE: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } },
};

/**
 * The error responses of an operation, one per status of the error table, each naming its codes
 * with their default messages and allowing exactly those codes in its body.
 */
export function errorResponses(codes: Iterable<ErrorCode>): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const statusCodes = byStatus.get(status) ?? [];
    const headers = Object.assign({}, ...statusCodes.map((code) => HEADERS_BY_CODE[code] ?? {}));
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${ERROR_CODES[code].message}`).join("; "),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { "application/json": { schema: errorBodySchema(statusCodes) } },
    };
  }
  return responses;
}
