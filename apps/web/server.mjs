#!/usr/bin/env node
// The production server: Next.js's request handler behind a Node HTTP server that records each
// connection's peer address in a header only it sets, so auth-core's throttling sees the real client.
// API requests that nothing of the project's own could answer go straight to auth-core, without
// Next.js's request handling (which costs several times what the API's answer does).
// @ts-check
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { authFromEnv, createNodeListener, PEER_ADDRESS_HEADER, pathOf, rawErrorResponse, startLines, writeError } from "@domain-auth/core";
import nextEnv from "@next/env";
import next from "next";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const dir = dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "127.0.0.1";

/**
 * @param {unknown} message
 * @returns {never}
 */
function fail(message) {
  console.error(`domain-auth: cannot start: ${String(message).split("\n")[0]}`);
  process.exit(1);
}

/**
 * Replaces any client-sent peer header with the socket's address.
 * @param {import("node:http").IncomingMessage} request
 */
function recordPeerAddress(request) {
  const raw = request.rawHeaders;
  for (let index = raw.length - 2; index >= 0; index -= 2) {
    if (raw[index]?.toLowerCase() === PEER_ADDRESS_HEADER) raw.splice(index, 2);
  }
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
}

// The methods a Next.js route handler can export; Next.js answers any other with a bare 400.
const NEXT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);

/** The route handler that passes API requests to auth-core (app/api/[...path]/route.ts). */
const CORE_ROUTE = "/api/[...path]";
/** Paths whose every segment is plain: Next.js routes them as they are, with nothing decoded or normalized. */
const PLAIN_API_PATH = /^\/api(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9_.~-]+)*$/;
/** The build's files, which Next.js serves to GET and HEAD only (and answers any other method with a 500). */
const BUILD_ASSETS = "/_next/static/";
/** The manifest versions whose shape `readNextRouting` knows. */
const KNOWN_VERSIONS = { routes: 3, middleware: 3, functions: 1 };

/**
 * A build manifest, as JSON of a shape `claimingSources` checks; `undefined` when it cannot be read.
 * @param {string} path
 * @returns {any}
 */
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** @type {(value: unknown) => value is Record<string, any>[]} */
const isList = (value) => Array.isArray(value) && value.every((item) => item !== null && typeof item === "object");

/**
 * The patterns, as source text, of everything in the build that could answer a path other than by handing
 * it to auth-core's route handler: a route of the project's own (under /api or anywhere), a redirect,
 * rewrite or header rule, or a proxy (middleware) whose matcher covers it. `null` when a manifest is
 * missing or of a version or shape not known here, when the build uses `basePath` or i18n routing, or has
 * no route handler for auth-core.
 * @param {any} routes `routes-manifest.json`
 * @param {any} edge `server/middleware-manifest.json`
 * @param {any} node `server/functions-config-manifest.json`
 * @returns {string[] | null}
 */
function claimingSources(routes, edge, node) {
  if (routes?.version !== KNOWN_VERSIONS.routes || edge?.version !== KNOWN_VERSIONS.middleware) return null;
  if (node?.version !== KNOWN_VERSIONS.functions || !node.functions || typeof node.functions !== "object") return null;
  if (routes.basePath !== "" || routes.i18n || !edge.middleware || typeof edge.middleware !== "object") return null;
  const rewrites = Array.isArray(routes.rewrites) ? routes.rewrites : Object.values(routes.rewrites ?? {}).flat();
  const pages = [...(routes.staticRoutes ?? []), ...(routes.dynamicRoutes ?? [])];
  const rules = [
    ...pages,
    ...(routes.dataRoutes ?? []),
    ...(routes.redirects ?? []),
    ...(routes.headers ?? []),
    ...(routes.onMatchHeaders ?? []),
    ...rewrites,
  ];
  if (!isList(rules) || !pages.some((route) => route.page === CORE_ROUTE)) return null;
  const sources = rules.filter((rule) => rule.page !== CORE_ROUTE).map((rule) => rule.regex);
  const proxies = [...Object.values(edge.middleware), ...(node.functions["/_middleware"] ? [node.functions["/_middleware"]] : [])];
  if (!isList(proxies)) return null;
  for (const proxy of proxies) {
    const matchers = proxy.matchers ?? [{ regexp: "^/.*$" }];
    if (!isList(matchers)) return null;
    sources.push(...matchers.map((matcher) => matcher.regexp));
  }
  return sources.every((source) => typeof source === "string") ? sources : null;
}

/**
 * Reads from the build's manifests whether Next.js might answer a path other than by handing it to
 * auth-core's route handler (see `claimingSources`). Fails closed: whatever it cannot read or does not
 * know leaves every path to Next.js. Patterns are matched ignoring case, which may claim more, never less.
 * @param {string} appDir
 * @returns {(path: string) => boolean}
 */
function readNextRouting(appDir) {
  const build = join(appDir, ".next");
  const sources = claimingSources(
    readJson(join(build, "routes-manifest.json")),
    readJson(join(build, "server", "middleware-manifest.json")),
    // Only builds with a Node.js proxy have it.
    readJson(join(build, "server", "functions-config-manifest.json")) ?? { version: KNOWN_VERSIONS.functions, functions: {} },
  );
  if (!sources) return () => true;
  /** @type {RegExp[]} */
  let patterns;
  try {
    patterns = sources.map((source) => new RegExp(source, "i"));
  } catch {
    return () => true;
  }
  return (path) => patterns.some((pattern) => pattern.test(path));
}

/**
 * `true` for an API path auth-core answers itself, exactly as sent: a plain path under /api (every
 * segment plain, nothing to decode or normalize) that nothing of the project's own could claim (see
 * `readNextRouting`). Every other path goes to Next.js, which routes it as the project's proxy and routes
 * see it.
 * @param {string} path
 * @param {(path: string) => boolean} nextMightAnswer
 */
function isCorePath(path, nextMightAnswer) {
  return PLAIN_API_PATH.test(path) && !nextMightAnswer(path);
}

/**
 * `true` for a path whose percent-encoding is broken (`%zz`, or bytes that are no UTF-8, such as `%C0`):
 * no route can be matched on it, and Next.js answers some with a bare 500.
 * @param {string} path
 */
function hasBrokenEncoding(path) {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * Requests Node.js cannot parse (bad header bytes, unknown methods, conflicting framing, headers over
 * 16 KiB, too slow to arrive) get the API's error body instead of a bare status line: 431 HEADERS_TOO_LARGE,
 * 408 REQUEST_TIMEOUT or 400 BAD_REQUEST.
 * @param {NodeJS.ErrnoException} error
 * @param {import("node:stream").Duplex & { _httpMessage?: { headersSent?: boolean } }} socket
 */
function answerClientError(error, socket) {
  if (!socket.writable || socket._httpMessage?.headersSent || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const code =
    error.code === "HPE_HEADER_OVERFLOW"
      ? "HEADERS_TOO_LARGE"
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "REQUEST_TIMEOUT"
        : "BAD_REQUEST";
  socket.end(rawErrorResponse(code));
}

if (!existsSync(join(dir, ".next", "BUILD_ID"))) fail("no production build in .next: run `next build` (`npm run build`) first");
// The same .env files `next start` reads (AUTH_SECRET in .env.local, say), loaded before the core reads the
// environment and before Next.js sets NODE_ENV: only an explicit NODE_ENV=production demands AUTH_SECRET.
nextEnv.loadEnvConfig(dir, false, { info: () => {}, error: console.error });
const auth = await authFromEnv().catch((error) => fail(error?.message ?? error));
// A first query now, so an unreachable database refuses to start rather than failing the first visitor.
const setupRequired = await auth.isSetupRequired().catch((error) => fail(error?.message ?? error));
// next's CommonJS export is the function itself; its types describe it as the module's default.
const createNext = /** @type {typeof import("next").default} */ (/** @type {unknown} */ (next));
const app = createNext({ dev: false, dir });
await app.prepare().catch((error) => fail(error?.message ?? error));
const handleRequest = app.getRequestHandler();
const handleInCore = createNodeListener(auth);
const nextMightAnswer = readNextRouting(dir);

// Node.js would answer a request without Host with a bare 400; we answer it with the error body.
const server = createServer({ requireHostHeader: false }, (request, response) => {
  if (!request.headers.host) return writeError(response, "BAD_REQUEST", { message: "The request has no Host header" });
  const method = request.method ?? "GET";
  const path = pathOf(request.url ?? "/");
  if (hasBrokenEncoding(path)) return writeError(response, "BAD_REQUEST", { message: "The request's path has broken percent-encoding" });
  if (path.startsWith(BUILD_ASSETS) && method !== "GET" && method !== "HEAD") {
    return writeError(response, "METHOD_NOT_ALLOWED", { headers: { allow: "GET, HEAD" } });
  }
  if (isCorePath(path, nextMightAnswer)) return handleInCore(request, response);
  // Next.js answers a method it does not know with a bare 400, without asking the project's proxy.
  if (!NEXT_METHODS.has(method)) return writeError(response, "BAD_REQUEST", { message: "The request's method is not supported" });
  recordPeerAddress(request);
  handleRequest(request, response);
});
server.on("clientError", answerClientError);
server.on("error", (error) => fail(error.message));
server.listen(port, hostname, () => {
  const address = server.address();
  const shownHost = hostname === "0.0.0.0" || hostname === "::" || hostname === "127.0.0.1" ? "localhost" : hostname;
  const origin = `http://${shownHost}:${typeof address === "object" && address ? address.port : port}`;
  for (const line of startLines(auth, origin, setupRequired)) console.log(line);
});

let stopping = false;
async function shutDown() {
  if (stopping) return;
  stopping = true;
  server.close();
  await auth.close();
  process.exit(0);
}
process.on("SIGINT", shutDown);
process.on("SIGTERM", shutDown);
