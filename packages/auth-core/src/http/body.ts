import type { ApiRequest } from "./api-request.js";
import { ApiError } from "./errors.js";
import { MAX_BODY_BYTES } from "./limits.js";

export { MAX_BODY_BYTES };

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mediaType = value.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json" || (mediaType?.startsWith("application/") === true && mediaType.endsWith("+json"));
}

async function readLimited(request: ApiRequest): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw new ApiError("PAYLOAD_TOO_LARGE");
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A Web stream is async iterable in Node.js, which the core runs on (DOM typings do not say so).
  for await (const chunk of request.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // Leaving the loop stops the body (a Web stream is cancelled, Node's request destroyed).
    if (size > MAX_BODY_BYTES) throw new ApiError("PAYLOAD_TOO_LARGE");
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a JSON object body: 415 without a JSON content type, 413 over {@link MAX_BODY_BYTES}, 400
 * when it is not valid UTF-8 JSON or not an object.
 */
export async function readJsonObject(request: ApiRequest): Promise<Record<string, unknown>> {
  if (!isJsonContentType(request.headers.get("content-type"))) throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
  const bytes = await readLimited(request);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new ApiError("INVALID_BODY", { message: "The body is not valid JSON", cause });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("INVALID_BODY", {
      message: "The body must be a JSON object",
      issues: [{ path: [], message: "expected an object" }],
    });
  }
  return value as Record<string, unknown>;
}
