import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The wizard package folder. */
export const WIZARD_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The command users run: the package's bin. */
export const BIN = fileURLToPath(new URL("../bin/create-domain-auth.js", import.meta.url));

/** Builds `dist/` the way `npm run build -w create-domain-auth` does. */
export function buildCli(): void {
  execFileSync(process.execPath, ["build.mjs"], { cwd: WIZARD_DIR, stdio: "pipe" });
}
