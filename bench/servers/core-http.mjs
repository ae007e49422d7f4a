#!/usr/bin/env node
// domain-auth's handler on a bare node:http server, configured from the environment exactly as the
// web app is (DOMAIN_FILE, DATABASE_URL, AUTH_SECRET, AUTH_BCRYPT_COST). Prints `{"port":N}` when listening,
// and on SIGUSR2 `{"eventLoopDelay":{…}}`: its event loop's delays (ms) since the previous SIGUSR2.
// BENCH_CORE_ENTRY runs another build of the core (bench/ab.mjs compares two builds).
import { createServer } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";

const { createAuthFromEnv, createNodeListener } = await import(process.env.BENCH_CORE_ENTRY || "@domain-auth/core");

const auth = await createAuthFromEnv();
// An older core (BENCH_CORE_ENTRY) serves its handle; the current one is served itself.
const server = createServer(createNodeListener(typeof auth.answer === "function" ? auth : auth.handle));
server.keepAliveTimeout = 10_000;
server.listen(Number(process.env.PORT || 0), "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
const delays = monitorEventLoopDelay({ resolution: 1 });
delays.enable();
process.on("SIGUSR2", () => {
  const ms = (ns) => ns / 1e6;
  console.log(JSON.stringify({ eventLoopDelay: { p50: ms(delays.percentile(50)), p99: ms(delays.percentile(99)), max: ms(delays.max) } }));
  delays.reset();
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    server.close();
    await auth.close();
    process.exit(0);
  });
}
