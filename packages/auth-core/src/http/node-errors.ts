import { type ServerResponse, STATUS_CODES } from "node:http";
import { ERROR_CODES, type ErrorCode } from "./errors.js";
import { API_SECURITY_HEADERS } from "./security-headers.js";

/** Options of {@link writeError} and {@link rawErrorResponse}. */
export interface EdgeErrorOptions {
  /** The sentence of the body. @default the error table's message */
  readonly message?: string;
  /** More headers, by lower-case name (`allow` with a 405, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

function errorBodyText(code: ErrorCode, options: EdgeErrorOptions): string {
  return JSON.stringify({ code, message: options.message ?? ERROR_CODES[code].message });
}

const EDGE_HEADERS = { ...API_SECURITY_HEADERS, "content-type": "application/json; charset=utf-8", connection: "close" };

/**
 * Answers a `node:http` response with an error of the table, in the API's body shape, and closes the
 * connection: for what never reaches a handler, or a handler that failed before answering.
 */
export function writeError(outgoing: ServerResponse, code: ErrorCode, options: EdgeErrorOptions = {}): void {
  if (!outgoing.headersSent) outgoing.writeHead(ERROR_CODES[code].status, { ...EDGE_HEADERS, ...options.headers });
  outgoing.end(errorBodyText(code, options));
}

/**
 * A whole HTTP/1.1 error response as text, for a socket whose bytes never became a request
 * (Node.js's `clientError`: bad header bytes, headers over 16 KiB, a request that took too long).
 */
export function rawErrorResponse(code: ErrorCode, options: EdgeErrorOptions = {}): string {
  const { status } = ERROR_CODES[code];
  const body = errorBodyText(code, options);
  const headers = Object.entries({ ...EDGE_HEADERS, ...options.headers, "content-length": String(Buffer.byteLength(body)) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}\r\n${body}`;
}
