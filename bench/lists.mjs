#!/usr/bin/env node
// The refined lists' rows of `npm run bench` alone, in a few minutes: a page of 20 posts of a search,
// a sort by the title (first page and one after its 90 % mark) and an enum filter, beside the default
// order's pages of the same size, at 10,000, 100,000 and 1,000,000 posts, on SQLite and PostgreSQL,
// taking turns as `npm run bench` measures them. Prints the rows in Markdown.
//   node bench/lists.mjs [--rounds N] [--sizes 10000,100000] [--save-results FILE]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createListScale, measureListScale, QUERY_SIZES } from "./lib/list-scale.mjs";
import { renderListQueryRows } from "./lib/report.mjs";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "3" }, sizes: { type: "string" }, "save-results": { type: "string" } },
});
const settings = { callers: 10, rounds: Number(values.rounds), durationMs: 1000 };
const sizes = values.sizes ? values.sizes.split(",").map(Number) : QUERY_SIZES;
const dir = mkdtempSync(join(tmpdir(), "domain-auth-bench-lists-"));
const started = performance.now();
const loadBefore = loadavg()[0];
try {
  process.stderr.write(
    `List queries: filling ${sizes.map((size) => size.toLocaleString("en")).join(", ")} posts, SQLite and PostgreSQL…\n`,
  );
  const scale = await createListScale(dir, { sizes, queries: true });
  const filledSeconds = (performance.now() - started) / 1000;
  try {
    process.stderr.write(`Filled in ${Math.round(filledSeconds)} s; measuring, taking turns…\n`);
    const listQueries = await measureListScale(scale, settings);
    console.log(renderListQueryRows(listQueries, settings.callers));
    const note = `${new Date().toISOString()}: ${settings.rounds} rounds, ${Math.round((performance.now() - started) / 1000)} s (the fill ${Math.round(filledSeconds)} s), load average ${loadBefore.toFixed(1)} before and ${loadavg()[0].toFixed(1)} after.`;
    console.log(`\n${note}`);
    if (values["save-results"]) writeFileSync(values["save-results"], JSON.stringify({ listQueries, note }, null, 2));
  } finally {
    await scale.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
