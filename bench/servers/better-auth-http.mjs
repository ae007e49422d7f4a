#!/usr/bin/env node
// Better Auth on a bare node:http server (its own toNodeHandler), on the SQLite file BENCH_DATABASE.
// Prints `{"port":N}` when listening.
import { createServer } from "node:http";
import { toNodeHandler } from "better-auth/node";
import { createBetterAuth } from "../lib/better-auth.mjs";

const { auth, close } = await createBetterAuth(process.env.BENCH_DATABASE, process.env.AUTH_SECRET);
const server = createServer(toNodeHandler(auth));
server.keepAliveTimeout = 10_000;
server.listen(Number(process.env.PORT || 0), "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    close();
    process.exit(0);
  });
}
