import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOurs, createTheirs } from "./lib/in-process.mjs";
import { closedLoop } from "./lib/load.mjs";

const dir = mkdtempSync(join(tmpdir(), "bench-"));
const ours = await createOurs(dir);
const theirs = await createTheirs(dir);
for (const c of [ours, theirs])
  for (const op of ["me", "register", "login"]) console.log(c.name, op, await closedLoop(c[op], { durationMs: 1500 }));
await ours.close();
await theirs.close();
