#!/usr/bin/env node
// Copies the files the bridge manifest lists from the web app (apps/web/<to>) into the
// wizard's templates (templates/<from>), so the scaffold is always what the real app runs.
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const wizard = fileURLToPath(new URL("..", import.meta.url));
const web = join(wizard, "..", "web");
const { templates } = parse(await readFile(join(wizard, "templates", "manifest.yaml"), "utf8"));

let failed = false;
for (const { from, to } of templates) {
  const source = join(web, to);
  const target = join(wizard, "templates", from);
  try {
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
    if (process.argv.includes("--verbose")) console.log(`apps/web/${to} → templates/${from}`);
  } catch (error) {
    failed = true;
    console.error(`cannot copy apps/web/${to}: ${error.message}`);
  }
}
process.exitCode = failed ? 1 : 0;
