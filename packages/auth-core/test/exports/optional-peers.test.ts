import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The database drivers and nodemailer are optional peers: a project installs the one it uses. Here
// the built package runs from a node_modules that has every other package but not those three
// (linked, and run with --preserve-symlinks so that Node resolves from the links, not from the repository).

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const REPOSITORY_MODULES = fileURLToPath(new URL("../../../../node_modules/", import.meta.url));
const ABSENT = new Set(["better-sqlite3", "pg", "nodemailer"]);
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "core-without-drivers-"));
  const modules = join(project, "node_modules");
  const core = join(modules, "@domain-auth", "core");
  mkdirSync(core, { recursive: true });
  for (const name of readdirSync(REPOSITORY_MODULES)) {
    if (!ABSENT.has(name) && name !== "@domain-auth" && !name.startsWith("."))
      symlinkSync(join(REPOSITORY_MODULES, name), join(modules, name));
  }
  // The package's files, not its own node_modules (which holds a nodemailer for its tests).
  for (const name of ["package.json", "dist"]) symlinkSync(join(PACKAGE, name), join(core, name));
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/** Runs `code` as an ES module in the project; its stdout. */
function runInProject(code: string): { stdout: string; stderr: string; status: number | null } {
  return spawnSync(process.execPath, ["--preserve-symlinks", "--input-type=module", "-e", code], { cwd: project, encoding: "utf8" });
}

describe("@domain-auth/core without its optional peers", () => {
  it("loads, and names the driver to install when a database URL needs it", { timeout: 30_000 }, () => {
    const result = runInProject(`
      import { openDatabase } from "@domain-auth/core/admin";
      import { createSmtpMailer } from "@domain-auth/core";
      for (const open of [() => openDatabase("postgres://127.0.0.1/x"), () => openDatabase("file::memory:"), async () => createSmtpMailer({ url: "smtp://127.0.0.1", from: "a@b.c" })]) {
        await open().then(() => console.log("opened"), (error) => console.log(error.message));
      }
    `);
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n")).toEqual([
      "a postgres:// DATABASE_URL (PostgreSQL) needs the pg package, which is not installed: run npm install pg",
      "a file: DATABASE_URL (SQLite) needs the better-sqlite3 package, which is not installed: run npm install better-sqlite3",
      "SMTP_URL (sending e-mail) needs the nodemailer package, which is not installed: run npm install nodemailer",
      "",
    ]);
  });
});
