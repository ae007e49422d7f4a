#!/usr/bin/env node
// The production server: Next.js's request handler behind a Node HTTP server that records each
// connection's peer address in a header only it sets, so auth-core's throttling sees the real client.
// API requests that nothing of the project's own could answer go straight to auth-core, without
// Next.js's request handling (which costs several times what the API's answer does).
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { authFromEnv, createNodeListener, PEER_ADDRESS_HEADER, rawErrorResponse, startLines, writeError } from "@domain-auth/core";
import nextEnv from "@next/env";
import next from "next";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const dir = dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "127.0.0.1";

function fail(message) {
  console.error(`domain-auth: cannot start: ${String(message).split("\n")[0]}`);
  process.exit(1);
}

/** Replaces any client-sent peer header with the socket's address. */
function recordPeerAddress(request) {
  const raw = request.rawHeaders;
  for (let index = raw.length - 2; index >= 0; index -= 2) {
    if (raw[index].toLowerCase() === PEER_ADDRESS_HEADER) raw.splice(index, 2);
  }
  request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
}

// The methods a Next.js route handler can export; Next.js answers any other with a bare 400.
const NEXT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);

/** The route handler that passes API requests to auth-core (app/api/[...path]/route.ts). */
const CORE_ROUTE = "/api/[...path]";
/** Paths whose every segment is plain: Next.js would route them as they are, with nothing decoded or normalized. */
const PLAIN_API_PATH = /^\/api(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9_.~-]+)+$/;

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Reads from the build's manifests whether Next.js might answer a path other than by handing it to
 * auth-core's route handler: a route of the project's own (under /api or anywhere), a redirect,
 * rewrite or header rule, or a proxy (middleware) whose matcher covers it. Any manifest it cannot
 * read, a `basePath` or i18n routing, and every path is left to Next.js.
 */
function readNextRouting(appDir) {
  const build = join(appDir, ".next");
  const routes = readJson(join(build, "routes-manifest.json"));
  const edge = readJson(join(build, "server", "middleware-manifest.json"));
  // Only builds with a Node.js proxy have it.
  const node = readJson(join(build, "server", "functions-config-manifest.json")) ?? { functions: {} };
  if (!routes || !edge?.middleware || !node.functions || routes.basePath || routes.i18n) return () => true;
  const rewrites = Array.isArray(routes.rewrites) ? routes.rewrites : Object.values(routes.rewrites ?? {}).flat();
  const sources = [
    ...[...(routes.staticRoutes ?? []), ...(routes.dynamicRoutes ?? [])].filter((route) => route.page !== CORE_ROUTE),
    ...(routes.redirects ?? []),
    ...(routes.headers ?? []),
    ...rewrites,
  ].map((rule) => rule.regex);
  const proxies = [...Object.values(edge.middleware), ...(node.functions["/_middleware"] ? [node.functions["/_middleware"]] : [])];
  for (const proxy of proxies) for (const matcher of proxy.matchers ?? [{ regexp: "^/.*$" }]) sources.push(matcher.regexp);
  let patterns;
  try {
    patterns = sources.map((source) => new RegExp(source));
  } catch {
    return () => true;
  }
  return (path) => patterns.some((pattern) => pattern.test(path));
}

/**
 * `true` for the API requests auth-core answers itself: those of plain paths under /api that nothing
 * of the project's own claims (see `readNextRouting`), and those Next.js cannot route: `/api` itself
 * (not under `app/api/[...path]`), paths whose percent-encoding is broken (a bare 500 from Next.js) and
 * methods Next.js does not know (a bare 400). The core answers the last with its error body: 404
 * NOT_FOUND or 405 METHOD_NOT_ALLOWED.
 */
function isForCore(request, nextMightAnswer) {
  const path = (request.url ?? "/").split("?")[0] ?? "";
  if (path !== "/api" && !path.startsWith("/api/")) return false;
  if (path === "/api" || !NEXT_METHODS.has(request.method ?? "")) return true;
  if (PLAIN_API_PATH.test(path)) return !nextMightAnswer(path);
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
const app = next({ dev: false, dir });
await app.prepare().catch((error) => fail(error?.message ?? error));
const handleRequest = app.getRequestHandler();
const handleInCore = createNodeListener(auth.handle);
const nextMightAnswer = readNextRouting(dir);

// Node.js would answer a request without Host with a bare 400; we answer it with the error body.
const server = createServer({ requireHostHeader: false }, (request, response) => {
  if (!request.headers.host) return writeError(response, "BAD_REQUEST", { message: "The request has no Host header" });
  if (isForCore(request, nextMightAnswer)) return handleInCore(request, response);
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
