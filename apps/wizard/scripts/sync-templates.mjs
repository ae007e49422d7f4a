#!/usr/bin/env node
// Copies the files the bridge manifest lists from the web app (apps/web/<to>) into the wizard's
// templates (templates/<from>), so the scaffold is always what the real app runs. Fails when a file of
// the auth pages' route group or of a `domain-auth/` folder is not listed: it would be missing from
// every project the wizard sets up. Also writes the auth pages' layout for a project whose next.config turns
// on `cacheComponents` (templates/next-cache-components/): the same file plus `instant = false`, which lets
// the pages render entirely per request, as their per-request CSP nonce needs, and which Next.js refuses
// without `cacheComponents`. And writes templates/next/versions.json, the package versions the web app
// runs, for a new app's package.json.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const wizard = fileURLToPath(new URL("..", import.meta.url));
const web = join(wizard, "..", "web");
const { templates } = parse(await readFile(join(wizard, "templates", "manifest.yaml"), "utf8"));
const SCAFFOLDED_FOLDERS = ["app/(domain-auth)", "components/domain-auth", "lib/domain-auth"];

let failed = false;
const listed = new Set(templates.map((template) => template.to));
for (const folder of SCAFFOLDED_FOLDERS) {
  for (const entry of await readdir(join(web, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(web, join(entry.parentPath, entry.name)).split("\\").join("/");
    if (listed.has(path)) continue;
    failed = true;
    console.error(`apps/web/${path} is not in templates/manifest.yaml`);
  }
}

// Files no longer listed must not stay behind to be packed.
await rm(join(wizard, "templates", "next"), { recursive: true, force: true });
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
// With cacheComponents, Next.js validates every page and layout for an instant, prerendered shell (in
// development) and prerenders what it can; the auth pages read the request (their nonce, the domain, the
// session's state) and decide 404s and redirects before anything is sent, so each of their segments
// opts out with `instant = false`: a page that blocks, rendered entirely per request.
const VARIANT_DIR = join(wizard, "templates", "next-cache-components");
await rm(VARIANT_DIR, { recursive: true, force: true });
const SEGMENT_FILE = /^app\/\(domain-auth\)\/(?:.+\/)?(?:layout|page)\.tsx$/;
for (const { from, to } of templates.filter((template) => SEGMENT_FILE.test(template.to))) {
  const target = join(VARIANT_DIR, from.replace(/^next\//, ""));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(
    target,
    `${await readFile(join(web, to), "utf8")}
// With cacheComponents: rendered per request, never from a prerendered shell, whose scripts could not
// carry the request's nonce.
export const instant = false;
`,
  );
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
