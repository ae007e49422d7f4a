#!/usr/bin/env node
// Compares two builds of the core on bare node:http in one run, the two servers taking turns:
// req/s and the server's CPU time per request for `me`, `me` with an API key (`meApiKey`), `refresh`,
// the entity list and `login`.
//   node bench/ab.mjs --a PATH/dist/index.js [--b PATH/dist/index.js] [--rounds N] [--seconds S] [--only me,meApiKey,refresh,list,login] [--floor]
// --floor also runs the floor of `me` (bench/servers/floor-http.mjs) in the same turns.
// --b defaults to this checkout's build (@domain-auth/core). Build a baseline with, for example,
//   git archive main packages/auth-core tsconfig.base.json | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/
//   (cd /tmp/base/packages/auth-core && npx tsc -p tsconfig.build.json)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as http from "./lib/http.mjs";
import { alternate } from "./lib/load.mjs";
import { formatNumber, formatRatio, median } from "./lib/stats.mjs";

const { values } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string" },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    only: { type: "string", default: "me,refresh,list" },
    floor: { type: "boolean", default: false },
  },
});
if (!values.a) {
  console.error(
    "usage: node bench/ab.mjs --a PATH/dist/index.js [--b PATH/dist/index.js] [--rounds N] [--seconds S] [--only me,refresh,list]",
  );
  process.exit(2);
}
const entry = (path) => (path ? resolve(path) : undefined);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const measures = values.only.split(",");
const dir = mkdtempSync(join(tmpdir(), "domain-auth-ab-"));
const servers = [];
try {
  const builds = [];
  for (const [name, path] of [
    ["a", values.a],
    ["b", values.b],
  ]) {
    const server = await http.startCoreServer(dir, { name, entry: entry(path) });
    servers.push(server);
    const prepared = await http.prepareCore(server, connections);
    if (measures.includes("list")) await http.preparePosts(prepared, 20);
    builds.push({ name, server: prepared });
  }
  const floor = values.floor ? await http.startFloorServer(builds[1].server) : null;
  if (floor) servers.push(floor);
  const run = {
    me: (server) => http.hitMe(server, { connections, seconds }),
    meApiKey: (server) => http.hitMe(server, { connections, seconds, target: "meApiKey" }),
    list: (server) => http.hitMe(server, { connections, seconds, target: "list" }),
    refresh: (server) => http.hitRefresh(server, { connections, seconds }),
    login: (server) => http.hitLogin(server, { connections, seconds }),
  };
  // Warm-up: every server, every measure, once.
  for (const { server } of builds) for (const measure of measures) await run[measure](server);
  const cpu = {};
  const p50 = {};
  const contenders = builds.flatMap(({ name, server }) =>
    measures.map((measure) => ({
      name: `${measure}:${name}`,
      measure: async () => {
        const result = await run[measure](server);
        if (result.other > 0) throw new Error(`${measure} on ${name}: ${result.other} failed answers (${JSON.stringify(result.statuses)})`);
        cpu[`${measure}:${name}`] ??= [];
        cpu[`${measure}:${name}`].push(result.serverCpuMsPerRequest);
        p50[`${measure}:${name}`] ??= [];
        p50[`${measure}:${name}`].push(result.p50);
        return result.requestsPerSecond;
      },
    })),
  );
  if (floor) {
    await run.me(floor);
    contenders.push({
      name: "me:floor",
      measure: async () => {
        const result = await run.me(floor);
        cpu["me:floor"] ??= [];
        cpu["me:floor"].push(result.serverCpuMsPerRequest);
        return result.requestsPerSecond;
      },
    });
  }
  const results = await alternate(contenders, Number(values.rounds));
  console.log(`| Measure | A req/s | B req/s | B/A (req/s) | A CPU ms/req | B CPU ms/req | A/B (CPU) | A p50 ms | B p50 ms |`);
  console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
  for (const measure of measures) {
    const a = results[`${measure}:a`];
    const b = results[`${measure}:b`];
    const cpuA = median(cpu[`${measure}:a`]);
    const cpuB = median(cpu[`${measure}:b`]);
    console.log(
      `| ${measure} | ${formatNumber(a.median)} | ${formatNumber(b.median)} | ${formatRatio(b.median / a.median)} | ${cpuA.toFixed(3)} | ${cpuB.toFixed(3)} | ${formatRatio(cpuA / cpuB)} | ${median(p50[`${measure}:a`]).toFixed(2)} | ${median(p50[`${measure}:b`]).toFixed(2)} |`,
    );
  }
  if (floor) {
    const floorRate = results["me:floor"].median;
    console.log(
      `\nfloor: ${formatNumber(floorRate)} req/s, ${median(cpu["me:floor"]).toFixed(3)} ms CPU/req; me B/floor ${formatRatio(results["me:b"].median / floorRate)}, A/floor ${formatRatio(results["me:a"].median / floorRate)}`,
    );
  }
  console.log(
    `\nper turn (req/s): ${Object.entries(results)
      .map(([name, { samples }]) => `${name} ${samples.map((s) => s.toFixed(0)).join(", ")}`)
      .join("; ")}`,
  );
} finally {
  await Promise.allSettled(servers.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
}
