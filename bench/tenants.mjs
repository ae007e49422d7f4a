#!/usr/bin/env node
// The tenant rows of `npm run bench` alone, in a few minutes: a page of 20 of one organization's
// records from a tenant table of 1,000 and of 1,000,000 records (10,000 organizations), the same
// page of a non-tenant entity, the membership read alone and `me` with and without organizations,
// on SQLite and PostgreSQL, taking turns as `npm run bench` measures them. Prints the rows in Markdown.
//   node bench/tenants.mjs [--rounds N] [--save-results FILE]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { renderTenantRows } from "./lib/report.mjs";
import { createTenantScale, measureTenantScale } from "./lib/tenant-scale.mjs";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" }, "save-results": { type: "string" } } });
const settings = { callers: 10, rounds: Number(values.rounds), durationMs: 1000 };
const dir = mkdtempSync(join(tmpdir(), "domain-auth-bench-tenants-"));
const started = performance.now();
const loadBefore = loadavg()[0];
try {
  process.stderr.write("Tenant lists: filling 1,000 and 1,000,000 records, SQLite and PostgreSQL…\n");
  const scale = await createTenantScale(dir);
  const filledSeconds = (performance.now() - started) / 1000;
  try {
    process.stderr.write(`Filled in ${Math.round(filledSeconds)} s; measuring, taking turns…\n`);
    const tenants = await measureTenantScale(scale, {
      rounds: settings.rounds,
      durationMs: settings.durationMs,
      callers: settings.callers,
    });
    console.log(renderTenantRows(tenants, settings.callers));
    const note = `${new Date().toISOString()}: ${settings.rounds} rounds, ${Math.round((performance.now() - started) / 1000)} s (the fill ${Math.round(filledSeconds)} s), load average ${loadBefore.toFixed(1)} before and ${loadavg()[0].toFixed(1)} after.`;
    console.log(`\n${note}`);
    if (values["save-results"]) writeFileSync(values["save-results"], JSON.stringify({ tenants, note }, null, 2));
  } finally {
    await scale.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
