import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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
