import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The wizard package folder. */
export const WIZARD_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The command users run: the package's bin. */
export const BIN = fileURLToPath(new URL("../bin/create-domain-auth.js", import.meta.url));

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

/**
 * Builds `dist/` the way `npm run build -w create-domain-auth` does, unless it is newer than the
 * sources. Test files run in parallel, so the build holds a lock and is not redone under a running CLI.
 */
export function buildCli(): void {
  const sources = [
    join(WIZARD_DIR, "src"),
    join(WIZARD_DIR, "build.mjs"),
    fileURLToPath(new URL("../../../packages/auth-core/src/config", import.meta.url)),
  ];
  const script = `
    const { statSync } = require("node:fs");
    let built = 0;
    try { built = statSync("dist/cli.js").mtimeMs; } catch {}
    if (built < ${Math.max(...sources.map(newestChange))}) require("node:child_process").execFileSync(process.execPath, ["build.mjs"], { stdio: "pipe" });
  `;
  execFileSync("flock", [join(tmpdir(), "create-domain-auth-build.lock"), process.execPath, "-e", script], {
    cwd: WIZARD_DIR,
    stdio: "pipe",
  });
}
