import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * The two published packages as npm would publish them: packed from their built files, then checked
 * by publint (strict), arethetypeswrong (ESM only: the packages have no CommonJS entry) and
 * `npm publish --dry-run`. Needs `npm run build` first, as `npm test` runs it.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "node_modules", ".bin");
const PACKAGES = [
  { name: "@domain-auth/core", dir: "packages/auth-core", built: "dist/index.js" },
  { name: "create-domain-auth", dir: "apps/wizard", built: "dist/cli.js" },
] as const;

interface Packed {
  readonly tarball: string;
  readonly files: readonly string[];
  readonly manifest: Record<string, unknown>;
}

let destination: string;
const packed = new Map<string, Packed>();

beforeAll(() => {
  destination = mkdtempSync(join(tmpdir(), "publish-gate-"));
  for (const { name, dir, built } of PACKAGES) {
    if (!existsSync(join(ROOT, dir, built))) throw new Error(`${dir}/${built} is missing: run npm run build first`);
    const [result] = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", destination], {
        cwd: join(ROOT, dir),
        encoding: "utf8",
      }),
    ) as { filename: string; files: { path: string }[] }[];
    if (!result) throw new Error(`npm pack of ${name} answered nothing`);
    packed.set(name, {
      tarball: join(destination, result.filename),
      files: result.files.map((file) => file.path),
      manifest: JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as Record<string, unknown>,
    });
  }
}, 120_000);

afterAll(() => {
  rmSync(destination, { recursive: true, force: true });
});

function packedOf(name: string): Packed {
  const result = packed.get(name);
  if (!result) throw new Error(`${name} was not packed`);
  return result;
}

describe.each(PACKAGES)("$name, packed", ({ name }) => {
  test("ships README.md and LICENSE, the license the repository's own", () => {
    const { files } = packedOf(name);
    expect(files).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json"]));
    const license = execFileSync("tar", ["-xOzf", packedOf(name).tarball, "package/LICENSE"], { encoding: "utf8" });
    expect(license).toBe(readFileSync(join(ROOT, "LICENSE"), "utf8"));
    expect(license).toContain("Copyright (c) 2026 domain-auth contributors");
  });

  test("names its repository, home page, issue tracker and the Node.js it needs", () => {
    const { manifest } = packedOf(name);
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    expect(manifest).toMatchObject({
      license: "MIT",
      repository: { type: "git", url: expect.stringMatching(/^git\+https:\/\//) },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\//) },
      engines: { node: root.engines.node },
    });
  });

  test("passes publint --strict", async () => {
    const { messages, pkg } = await publint({
      pack: { tarball: readFileSync(packedOf(name).tarball).buffer as ArrayBuffer },
      strict: true,
      level: "suggestion",
    });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg)}`)).toEqual([]);
  });

  test("npm publish --dry-run accepts it", { timeout: 60_000 }, () => {
    const result = spawnSync("npm", ["publish", "--dry-run", "--ignore-scripts", packedOf(name).tarball], {
      cwd: destination,
      encoding: "utf8",
      // `npm test --silent` passes its log level down: the dry run must still say what it would publish.
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_loglevel: "notice" },
    });
    expect(result.stderr).not.toMatch(/npm error/);
    expect(result.status).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain(`(dry-run)`);
  });
});

describe("@domain-auth/core, packed", () => {
  test("arethetypeswrong finds no problem for ESM consumers, on any entry point", { timeout: 120_000 }, () => {
    const result = spawnSync(join(BIN, "attw"), [packedOf("@domain-auth/core").tarball, "--profile", "esm-only", "--format", "json"], {
      encoding: "utf8",
    });
    const report = JSON.parse(result.stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems?: Record<string, { resolutionKind?: string }[]>;
    };
    // The JSON lists what the esm-only profile ignores too: resolution by node10 and by require().
    const ignored = new Set(["node10", "node16-cjs"]);
    expect(
      Object.values(report.problems ?? {})
        .flat()
        .filter((problem) => !ignored.has(problem.resolutionKind ?? "")),
    ).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints)).toEqual(expect.arrayContaining([".", "./next", "./config", "./policy"]));
    expect(result.status).toBe(0);
  });

  test("ships the sources its exports' source condition and its source maps name, and no test", () => {
    const { files, manifest } = packedOf("@domain-auth/core");
    const exported = Object.values(manifest.exports as Record<string, Record<string, string>>);
    for (const conditions of exported) {
      for (const target of Object.values(conditions)) expect(files).toContain(target.replace(/^\.\//, ""));
    }
    const maps = files.filter((file) => file.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(0);
    const map = JSON.parse(
      execFileSync("tar", ["-xOzf", packedOf("@domain-auth/core").tarball, `package/${maps[0]}`], { encoding: "utf8" }),
    ) as {
      sources: string[];
    };
    const mapDir = (maps[0] as string).split("/").slice(0, -1);
    for (const source of map.sources) {
      const parts = [...mapDir];
      for (const part of source.split("/")) part === ".." ? parts.pop() : parts.push(part);
      expect(files).toContain(parts.join("/"));
    }
    expect(files.filter((file) => /\.test\.ts$/.test(file))).toEqual([]);
  });
});
