#!/usr/bin/env node
// Copies the files the bridge manifest lists from the web app (apps/web/<to>) into the
// wizard's templates (templates/<from>), so the scaffold is always what the real app runs; and
// writes templates/next/versions.json, the package versions the web app runs, for a new app's package.json.
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
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
const readJson = async (path) => JSON.parse(await readFile(path, "utf8"));
const webManifest = await readJson(join(web, "package.json"));
const rootManifest = await readJson(join(wizard, "..", "..", "package.json"));
const available = { ...rootManifest.devDependencies, ...webManifest.devDependencies, ...webManifest.dependencies };
const names = ["next", "@next/env", "react", "react-dom", "@types/react", "@types/react-dom", "@types/node", "typescript"];
const versions = Object.fromEntries(names.filter((name) => available[name]).map((name) => [name, available[name]]));
await mkdir(join(wizard, "templates", "next"), { recursive: true });
await writeFile(join(wizard, "templates", "next", "versions.json"), `${JSON.stringify(versions, null, 2)}\n`);

process.exitCode = failed ? 1 : 0;
