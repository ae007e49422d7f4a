import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { expect, test } from "vitest";

/**
 * `npm ci` refuses a lock file that lacks a package some locked package may need, the platform
 * builds of native tools included (every operating system's, not only this machine's).
 */

interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const lock = JSON.parse(readFileSync(fileURLToPath(new URL("../../package-lock.json", import.meta.url)), "utf8")) as {
  packages: Record<string, LockedPackage>;
};

/** Where Node.js would find `name` from the package at `location`: its own node_modules, then each parent's. */
function resolveFrom(location: string, name: string): string | undefined {
  let base = location;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (base === "") return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut >= 0 ? base.slice(0, cut) : "";
  }
}

test("every dependency of every locked package, optional platform builds included, is in the lock file", () => {
  const missing: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const name of Object.keys(wanted)) {
      if (!resolveFrom(location, name)) missing.push(`${location || "(root)"} → ${name}@${wanted[name]}`);
    }
  }
  expect(missing).toEqual([]);
});

/** The locked packages the published packages run with: their dependencies, and theirs, to the end. */
function runtimeClosure(workspaces: readonly string[]): Set<string> {
  const found = new Set<string>();
  const pending = [...workspaces];
  for (let location = pending.pop(); location !== undefined; location = pending.pop()) {
    const entry = lock.packages[location];
    for (const name of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) {
      const resolved = resolveFrom(location, name);
      if (resolved && !found.has(resolved)) {
        found.add(resolved);
        pending.push(resolved);
      }
    }
  }
  return found;
}

test("every package the published packages run with accepts the oldest Node.js they declare (no engine warning on install)", () => {
  const root = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as {
    engines: { node: string };
  };
  const oldest = semver.minVersion(root.engines.node)?.version ?? "";
  expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
  const refusing = [...runtimeClosure(["packages/auth-core", "apps/wizard"])]
    .map((location) => [location, (lock.packages[location] as LockedPackage & { engines?: { node?: string } }).engines?.node] as const)
    .filter(([, range]) => range !== undefined && !semver.satisfies(oldest, range))
    .map(([location, range]) => `${location} wants node ${range}`);
  expect(refusing).toEqual([]);
});
