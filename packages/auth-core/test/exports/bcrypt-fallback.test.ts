import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// The native bcrypt is an optional dependency: npm skips it where it neither ships a build nor can
// compile one, and a package manager may install it without the build for this platform. Here the
// built package runs from a node_modules that lacks it, or holds it without its builds, and must
// hash with bcryptjs on its threads; and from one without bcryptjs, where the threads must run the
// native one (a thread that loaded bcryptjs anyway would fail). Links are followed with
// --preserve-symlinks, so that Node resolves from the links, not from the repository.

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const REPOSITORY_MODULES = fileURLToPath(new URL("../../../../node_modules/", import.meta.url));
const projects: string[] = [];

/** A project whose node_modules has the repository's packages but those in `absent`, and the built core. */
function projectWithout(absent: readonly string[]): string {
  const project = mkdtempSync(join(tmpdir(), "core-bcrypt-"));
  projects.push(project);
  const modules = join(project, "node_modules");
  const core = join(modules, "@domain-auth", "core");
  mkdirSync(core, { recursive: true });
  for (const name of readdirSync(REPOSITORY_MODULES)) {
    if (!absent.includes(name) && name !== "@domain-auth" && !name.startsWith("."))
      symlinkSync(join(REPOSITORY_MODULES, name), join(modules, name));
  }
  for (const name of ["package.json", "dist"]) symlinkSync(join(PACKAGE, name), join(core, name));
  return project;
}

afterAll(() => {
  for (const project of projects) rmSync(project, { recursive: true, force: true });
});

// Hashes made by the other library: each run must verify them too.
const require = createRequire(import.meta.url);
const STORED = {
  native: (require("bcrypt") as { hashSync(password: string, cost: number): string }).hashSync("correct horse battery", 10),
  javascript: (require("bcryptjs") as { hashSync(password: string, cost: number): string }).hashSync("correct horse battery", 10),
};

/** Hashes and compares with the built package's hasher in `project` (library `choice`); what it printed. */
function hashIn(project: string, choice: string): { lines: string[]; stderr: string } {
  const code = `
    import { createPasswordHasher } from "@domain-auth/core/admin";
    import { startLines } from "@domain-auth/core";
    let hasher;
    try {
      hasher = createPasswordHasher({ cost: 10, threads: 2, library: ${JSON.stringify(choice)} });
      console.log(startLines({ model: {}, endpoints: null, setupTokenRequired: false, tools: { hasher } }, "http://localhost:3000", false)[0]);
      const hash = await hasher.hash("correct horse battery");
      console.log(hash.slice(0, 7), await hasher.verify("correct horse battery", hash), await hasher.verify("correct horse batterz", hash));
      console.log(await hasher.verify("correct horse battery", ${JSON.stringify(STORED.native)}), await hasher.verify("correct horse battery", ${JSON.stringify(STORED.javascript)}));
      console.log(await hasher.verify("a".repeat(73), hash), await hasher.verifyNothing("correct horse battery"));
    } catch (error) {
      console.log("error:", error.message);
    } finally {
      await hasher?.close();
    }
  `;
  const result = spawnSync(process.execPath, ["--preserve-symlinks", "--input-type=module", "-e", code], {
    cwd: project,
    encoding: "utf8",
  });
  return { lines: result.stdout.trim().split("\n"), stderr: result.stderr };
}

const HASHED_AND_VERIFIED = ["$2b$10$ true false", "true true", "false false"];

describe("@domain-auth/core where the native bcrypt cannot load", () => {
  it("hashes and compares with bcryptjs when the package is not installed, and says why at start", { timeout: 60_000 }, () => {
    const { lines, stderr } = hashIn(projectWithout(["bcrypt"]), "auto");
    expect(stderr).toBe("");
    expect(lines[0]).toMatch(
      /^domain-auth: passwords are hashed with bcryptjs \(JavaScript, slower logins\): the native bcrypt does not load: Cannot find module 'bcrypt'/,
    );
    expect(lines.slice(1)).toEqual(HASHED_AND_VERIFIED);
  });

  it("hashes and compares with bcryptjs when the package has no build for this platform", { timeout: 60_000 }, () => {
    const project = projectWithout(["bcrypt"]);
    // The package as installed on a platform it ships no build for, where none could be compiled.
    cpSync(join(REPOSITORY_MODULES, "bcrypt"), join(project, "node_modules", "bcrypt"), {
      recursive: true,
      filter: (source) => !/[/\\](prebuilds|build)$/.test(source),
    });
    const { lines, stderr } = hashIn(project, "auto");
    expect(stderr).toBe("");
    expect(lines[0]).toMatch(
      /^domain-auth: passwords are hashed with bcryptjs .*: the native bcrypt does not load: No native build was found/,
    );
    expect(lines.slice(1)).toEqual(HASHED_AND_VERIFIED);
  });

  it("refuses to start when the native bcrypt is insisted on", { timeout: 60_000 }, () => {
    const { lines, stderr } = hashIn(projectWithout(["bcrypt"]), "bcrypt");
    expect(stderr).toBe("");
    expect(lines).toEqual([
      expect.stringMatching(/^error: the native bcrypt was asked for but does not load: Cannot find module 'bcrypt'/),
    ]);
  });
});

describe("@domain-auth/core with the native bcrypt", () => {
  it("runs it on its threads: without bcryptjs installed, nothing needs it", { timeout: 60_000 }, () => {
    const { lines, stderr } = hashIn(projectWithout(["bcryptjs"]), "auto");
    expect(stderr).toBe("");
    expect(lines).toEqual(["domain-auth: passwords are hashed with the native bcrypt", ...HASHED_AND_VERIFIED]);
  });
});
