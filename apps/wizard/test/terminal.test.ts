import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateDomainText } from "@domain-auth/core/config";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, buildCli, WIZARD_DIR } from "./built-cli.js";

function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"]).status === 0;
}

const sessions: string[] = [];
let dir: string;

/** The built CLI in a real 120×40 terminal (tmux), keys sent and the pane read back. */
function startInTmux(cwd: string, args: string, options: { runAs?: string; columns?: number; bin?: string } = {}) {
  const name = `wizard-${process.pid}-${sessions.length}`;
  const exitFile = join(cwd, "..", `${name}.exit`);
  sessions.push(name);
  const command = `cd '${cwd}' && env -u CI ${options.runAs ?? ""} node '${options.bin ?? BIN}' ${args}; echo $? > '${exitFile}'; sleep 60`;
  execFileSync("tmux", ["new-session", "-d", "-s", name, "-x", String(options.columns ?? 120), "-y", "40", command]);
  const pane = () => execFileSync("tmux", ["capture-pane", "-p", "-t", name], { encoding: "utf8" });
  return {
    pane,
    async waitFor(text: string): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (!pane().includes(text)) {
        if (Date.now() > deadline) throw new Error(`"${text}" never appeared in the terminal:\n${pane()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    send(...keys: string[]): void {
      execFileSync("tmux", ["send-keys", "-t", name, ...keys]);
    },
    async exitCode(): Promise<number> {
      const deadline = Date.now() + 10_000;
      while (!existsSync(exitFile)) {
        if (Date.now() > deadline) throw new Error(`the wizard did not exit:\n${pane()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return Number((await readFile(exitFile, "utf8")).trim());
    },
  };
}

/** Folders made by {@link readableCopyOfCli}, removed after each test. */
const copies: string[] = [];

/**
 * The built CLI as the package publishes it (bin, dist, templates, package.json: it bundles its
 * dependencies), copied to a folder every user may read; resolves to its bin.
 */
async function readableCopyOfCli(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "wizard-cli-"));
  copies.push(folder);
  for (const entry of ["bin", "dist", "templates", "package.json"])
    await cp(join(WIZARD_DIR, entry), join(folder, entry), { recursive: true });
  execFileSync("chmod", ["-R", "a+rX", folder]);
  return join(folder, "bin", "create-domain-auth.js");
}

describe("the built CLI in a real terminal (tmux)", () => {
  beforeAll(() => {
    // `npm test` installs tmux; a missing one is a failure, never a skip.
    if (!hasTmux()) throw new Error("tmux is not installed (npm test installs it with apt-get)");
    buildCli();
  });
  afterEach(async () => {
    for (const name of sessions.splice(0)) spawnSync("tmux", ["kill-session", "-t", name]);
    await rm(join(dir, ".."), { recursive: true, force: true });
    for (const folder of copies.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  async function freshProject(): Promise<string> {
    const parent = await mkdtemp(join(tmpdir(), "wizard-tmux-"));
    dir = join(parent, "shop");
    await mkdir(dir);
    return dir;
  }

  it("sets up a fresh folder by keyboard", async () => {
    const project = await freshProject();
    const term = startInTmux(project, "--no-install");
    await term.waitFor("Start from a starter file with a User entity?");
    term.send("Enter");
    await term.waitFor("How do callers authenticate?");
    expect(term.pane()).toContain("Cookie sessions (planned)");
    term.send("Enter");
    await term.waitFor("Which entity holds the users?");
    term.send("Enter");
    await term.waitFor("Which roles can users hold?");
    term.send("End", ", 1st", "Enter");
    await term.waitFor("'1st' is not a valid role name");
    term.send("BSpace", "BSpace", "BSpace", "Editor", "Enter");
    await term.waitFor("Which role does register give new users?");
    term.send("Enter");
    await term.waitFor("Which endpoints should exist?");
    expect(term.pane()).toContain("POST /api/user/login");
    term.send("Enter");
    await term.waitFor("Require users who register to confirm their e-mail address");
    term.send("Enter");
    await term.waitFor("Second factors (authenticator app, passkeys)");
    expect(term.pane()).toContain("Required for Admin (recommended)");
    term.send("Enter");
    await term.waitFor("Which providers may people sign in with?");
    term.send("Enter");
    await term.waitFor("Do the app's records belong to teams or organizations?");
    term.send("Enter");
    await term.waitFor("Write these changes?");
    expect(term.pane()).toContain("create     .env.local");
    term.send("Enter");
    await term.waitFor("Next steps");
    expect(await term.exitCode()).toBe(0);

    const { model } = validateDomainText(await readFile(join(project, "domain.yaml"), "utf8"));
    expect(model).toMatchObject({
      name: "shop",
      auth: { roles: ["Admin", "Member", "Editor"], defaultRole: "Member", mfa: { required: ["Admin"] } },
    });
    expect(await readdir(project)).toEqual(expect.arrayContaining([".env.local", ".gitignore", "app", "domain.yaml"]));
  });

  it("exits 130 on Ctrl-C and leaves the files as they were", async () => {
    const project = await freshProject();
    const original = "name: shop\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n";
    await writeFile(join(project, "domain.yaml"), original);
    const term = startInTmux(project, "");
    await term.waitFor("How do callers authenticate?");
    term.send("Down", "Enter");
    await term.waitFor("Write these changes?");
    term.send("C-c");
    await term.waitFor("Cancelled; nothing was written.");
    expect(await term.exitCode()).toBe(130);
    expect(await readdir(project)).toEqual(["domain.yaml"]);
    expect(await readFile(join(project, "domain.yaml"), "utf8")).toBe(original);
  });

  it("says at once, in one sentence, that it may not write in the folder", async () => {
    const project = await freshProject();
    // As root every folder is writable: run as nobody in a folder root owns; otherwise take the write bit away.
    const asRoot = process.getuid?.() === 0;
    await chmod(join(project, ".."), 0o755);
    if (!asRoot) await chmod(project, 0o555);
    // nobody may not reach a checkout inside a folder only its owner enters (a clone under /root, a
    // `mktemp -d`): it runs a copy of the CLI that everyone may read.
    const bin = asRoot ? await readableCopyOfCli() : BIN;
    const term = startInTmux(project, "", asRoot ? { runAs: "setpriv --reuid=65534 --regid=65534 --clear-groups", bin } : {});
    await term.waitFor("Cannot write in this folder (permission denied)");
    expect(await term.exitCode()).toBe(1);
    const screen = term.pane();
    expect(screen).toContain("Cannot write in this folder (permission denied); pick a folder you may change.");
    expect(screen).not.toContain("domain.yaml");
    expect(screen).not.toContain("EACCES");
    if (!asRoot) await chmod(project, 0o755);
    expect(await readdir(project)).toEqual([]);
  });

  it("names every endpoint in the endpoints question and in its answer, in a narrow terminal too", async () => {
    const project = await freshProject();
    const term = startInTmux(project, "--dry-run --type jwt --roles Admin,Reader --default-role Reader", { columns: 58 });
    await term.waitFor("has no domain.yaml");
    term.send("Enter");
    await term.waitFor("Which entity holds");
    term.send("Enter");
    // The question's last option, drawn with the rest: the whole list is on screen.
    await term.waitFor("resend-verification");
    // Each label whole, however the terminal wraps it.
    const question = term.pane().replace(/\n│ {2}(?!◼|◻)/g, " ");
    expect(question).toContain("◼ POST /api/user/forgot-password and reset-password");
    expect(question).toContain("◼ POST /api/user/verify-email and resend-verification");
    term.send("Enter");
    await term.waitFor("Require users who");
    const answer = term.pane().split("◇  Which endpoints should exist?")[1]?.split("◆")[0] ?? "";
    const line = answer.replace(/\n│ {2}/g, " ").replace(/\s+/g, " ");
    expect(line).toContain("POST /api/user/forgot-password and reset-password, POST /api/user/verify-email and resend-verification");
    expect(line).not.toContain(",,");
    term.send("C-c");
    expect(await term.exitCode()).toBe(130);
  });
});
