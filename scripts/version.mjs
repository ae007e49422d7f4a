#!/usr/bin/env node
// Sets the version of both published packages at once, so they stay in step: the wizard adds
// `@domain-auth/core@^<its own version>` to the projects it sets up, so the core of that version
// must exist. Also sets every workspace's dependency on the core, and the lock file's copies.
//
//   node scripts/version.mjs 0.2.0        set 0.2.0 everywhere; CHANGELOG.md must have a "## 0.2.0" section
//   node scripts/version.mjs --check      exit 1 unless every place agrees (what the publish check runs)
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const CORE = "@domain-auth/core";
/** The published packages, core first: the order they are published in. */
export const PUBLISHED = ["packages/auth-core", "apps/wizard"];
const DEPENDENCY_LISTS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The workspace folders the root package.json lists (`packages/*` globs one level deep). */
function workspaces(root) {
  const { workspaces: patterns = [] } = readJson(join(root, "package.json"));
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent))
      .map((name) => `${parent}/${name}`)
      .filter((folder) => existsSync(join(root, folder, "package.json")));
  });
}

/** Every place that names the published version: "file: field" → value. */
export function versionPlaces(root) {
  const places = new Map();
  const lock = readJson(join(root, "package-lock.json")).packages;
  for (const folder of PUBLISHED) {
    places.set(`${folder}/package.json: version`, readJson(join(root, folder, "package.json")).version);
    places.set(`package-lock.json: ${folder} version`, lock[folder]?.version);
  }
  for (const folder of workspaces(root)) {
    const manifest = readJson(join(root, folder, "package.json"));
    for (const list of DEPENDENCY_LISTS) {
      if (manifest[list]?.[CORE] !== undefined) {
        places.set(`${folder}/package.json: ${list}.${CORE}`, manifest[list][CORE]);
        places.set(`package-lock.json: ${folder} ${list}.${CORE}`, lock[folder]?.[list]?.[CORE]);
      }
    }
  }
  return places;
}

/** Sets `version` in every place {@link versionPlaces} lists. */
export function setVersion(root, version) {
  if (!SEMVER.test(version)) throw new Error(`not a version: ${version} (expected e.g. 0.2.0)`);
  const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
  if (!new RegExp(`^## ${version.replaceAll(".", "\\.")}\\b`, "m").test(changelog)) {
    throw new Error(`CHANGELOG.md has no "## ${version}" section: write what changed first`);
  }
  const lockPath = join(root, "package-lock.json");
  const lock = readJson(lockPath);
  for (const folder of PUBLISHED) {
    const path = join(root, folder, "package.json");
    writeJson(path, { ...readJson(path), version });
    if (lock.packages[folder]) lock.packages[folder].version = version;
  }
  for (const folder of workspaces(root)) {
    const path = join(root, folder, "package.json");
    const manifest = readJson(path);
    for (const list of DEPENDENCY_LISTS) {
      if (manifest[list]?.[CORE] === undefined) continue;
      manifest[list][CORE] = version;
      if (lock.packages[folder]?.[list]?.[CORE] !== undefined) lock.packages[folder][list][CORE] = version;
    }
    writeJson(path, manifest);
  }
  writeJson(lockPath, lock);
}

function main(args) {
  const root = process.cwd();
  if (args[0] === "--check") {
    const places = versionPlaces(root);
    const values = new Set(places.values());
    if (values.size === 1) {
      console.log(`version ${[...values][0]} in all ${places.size} places`);
      return 0;
    }
    console.error("the published version differs between:");
    for (const [place, value] of places) console.error(`  ${place}  ${value}`);
    return 1;
  }
  if (args.length !== 1) {
    console.error("usage: node scripts/version.mjs <version> | --check");
    return 2;
  }
  try {
    setVersion(root, args[0]);
  } catch (error) {
    console.error(`version: ${error.message}`);
    return 1;
  }
  console.log(`version ${args[0]}: ${PUBLISHED.join(" and ")}, and every dependency on ${CORE}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
