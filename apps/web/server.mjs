#!/usr/bin/env node
// The production server: Next.js's request handler behind a Node HTTP server that records each
// connection's peer address in a header only it sets, so auth-core's throttling sees the real client.
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { authFromEnv, PEER_ADDRESS_HEADER } from "@domain-auth/core";
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

if (!existsSync(join(dir, ".next", "BUILD_ID"))) fail("no production build in apps/web/.next; run `npm start` from the repository root");
// The same .env files `next start` reads (AUTH_SECRET in .env.local, say), loaded before the core reads the
// environment and before Next.js sets NODE_ENV: only an explicit NODE_ENV=production demands AUTH_SECRET.
nextEnv.loadEnvConfig(dir, false, { info: () => {}, error: console.error });
const auth = await authFromEnv().catch((error) => fail(error?.message ?? error));
// A first query now, so an unreachable database refuses to start rather than failing the first visitor.
const setupRequired = await auth.isSetupRequired().catch((error) => fail(error?.message ?? error));
const app = next({ dev: false, dir });
await app.prepare().catch((error) => fail(error?.message ?? error));
const handleRequest = app.getRequestHandler();

const server = createServer((request, response) => {
  recordPeerAddress(request);
  handleRequest(request, response);
});
server.on("error", (error) => fail(error.message));
server.listen(port, hostname, () => {
  const address = server.address();
  const shownHost = hostname === "0.0.0.0" || hostname === "::" || hostname === "127.0.0.1" ? "localhost" : hostname;
  const origin = `http://${shownHost}:${typeof address === "object" && address ? address.port : port}`;
  const firstRun = setupRequired && auth.model.auth?.endpoints.setup === true;
  console.log(firstRun ? `domain-auth: create the first administrator at ${origin}/setup` : `domain-auth: ready at ${origin}/`);
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
