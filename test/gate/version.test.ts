import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/** scripts/version.mjs keeps both published packages, and every dependency on the core, at one version. */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "version.mjs");
let copy: string;

function version(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: "utf8" });
}

/** The manifests the script reads, copied into a folder of their own. */
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "version-"));
  const manifests = [
    "package.json",
    "package-lock.json",
    "CHANGELOG.md",
    "e2e/package.json",
    "bench/package.json",
    "test/support/package.json",
  ];
  for (const parent of ["packages", "apps"]) {
    for (const name of readdirSync(join(ROOT, parent))) manifests.push(`${parent}/${name}/package.json`);
  }
  for (const path of manifests) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    cpSync(join(ROOT, path), join(copy, path));
  }
});

afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
});

describe("scripts/version.mjs", () => {
  test("--check: the repository's versions agree", () => {
    const result = version(ROOT, "--check");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  test("refuses a version CHANGELOG.md does not describe, changing nothing", () => {
    const before = readFileSync(join(copy, "packages/auth-core/package.json"), "utf8");
    const result = version(copy, "9.8.7");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CHANGELOG.md has no "## 9.8.7" section');
    expect(readFileSync(join(copy, "packages/auth-core/package.json"), "utf8")).toBe(before);
    expect(version(copy, "next").stderr).toContain("not a version: next");
  });

  test("sets both packages, the wizard's and every workspace's dependency on the core, and the lock file", () => {
    appendFileSync(join(copy, "CHANGELOG.md"), "\n## 9.8.7\n\n- A test release.\n");
    expect(version(copy, "9.8.7").status).toBe(0);
    const read = (path: string) => JSON.parse(readFileSync(join(copy, path), "utf8"));
    expect(read("packages/auth-core/package.json").version).toBe("9.8.7");
    expect(read("apps/wizard/package.json")).toMatchObject({ version: "9.8.7", devDependencies: { "@domain-auth/core": "9.8.7" } });
    expect(read("apps/web/package.json").dependencies["@domain-auth/core"]).toBe("9.8.7");
    const lock = read("package-lock.json").packages;
    expect(lock["packages/auth-core"].version).toBe("9.8.7");
    expect(lock["apps/wizard"]).toMatchObject({ version: "9.8.7", devDependencies: { "@domain-auth/core": "9.8.7" } });
    const check = version(copy, "--check");
    expect(check.stdout).toMatch(/^version 9\.8\.7 in all \d+ places/);
    expect(check.status).toBe(0);
  });
});
