#!/usr/bin/env node
// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by package.
//   node lib/profile-summary.mjs FILE.cpuprofile [--top N] [--last-ms MS]
// --last-ms keeps only the samples of the profile's last MS milliseconds (the load, not the start-up).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { top: { type: "string", default: "25" }, "last-ms": { type: "string" } },
  allowPositionals: true,
});
const profile = JSON.parse(readFileSync(positionals[0], "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
const deltas = profile.timeDeltas;
const from = values["last-ms"] ? profile.endTime - Number(values["last-ms"]) * 1000 : Number.NEGATIVE_INFINITY;
let time = profile.startTime;
for (let index = 0; index < profile.samples.length; index++) {
  time += deltas[index] ?? 0;
  if (time < from) continue;
  selfTime.set(profile.samples[index], (selfTime.get(profile.samples[index]) ?? 0) + (deltas[index] ?? 0));
}
const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);
const packageOf = (url) => {
  if (!url) return "(native/idle)";
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith("node:")) return url;
  if (url.includes("/packages/auth-core/")) return "@domain-auth/core";
  return url
    .replace(/^file:\/\//, "")
    .split("/")
    .slice(-2)
    .join("/");
};
const functions = new Map();
const packages = new Map();
for (const [id, time] of selfTime) {
  const { callFrame } = byId.get(id);
  const key = `${callFrame.functionName || "(anonymous)"}  ${packageOf(callFrame.url)}:${callFrame.lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + time);
  const pkg = callFrame.url ? packageOf(callFrame.url) : callFrame.functionName;
  packages.set(pkg, (packages.get(pkg) ?? 0) + time);
}
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`${((100 * time) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
};
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
show("self time by package", packages);
show("self time by function", functions);
