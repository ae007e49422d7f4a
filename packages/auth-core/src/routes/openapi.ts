import { createHash } from "node:crypto";
import type { ApiRequest } from "../http/api-request.js";
import type { Reply } from "../http/responses.js";
import { API_SECURITY_HEADERS } from "../http/security-headers.js";
import type { OpenApiDocument } from "../openapi/document.js";

/**
 * `GET /api/openapi.json`: the document, serialized once. It holds no token or user, so unlike the
 * rest of the API a cache may keep it, revalidating with its `ETag` (304 when unchanged).
 */
export function openApiRoute(document: OpenApiDocument): (request: ApiRequest) => Promise<Reply> {
  const text = JSON.stringify(document);
  const etag = `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;
  const headers = {
    "x-content-type-options": API_SECURITY_HEADERS["x-content-type-options"] ?? "nosniff",
    "cache-control": "no-cache",
    etag,
  };
  return async (request) => {
    const candidates =
      request.headers
        .get("if-none-match")
        ?.split(",")
        .map((tag) => tag.trim()) ?? [];
    if (candidates.includes(etag) || candidates.includes("*")) return { status: 304, headers: { ...headers }, body: null };
    return { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" }, body: text };
  };
}
