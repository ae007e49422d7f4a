import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The create-next-app the tests make projects with, pinned so a new release cannot change them
 * unnoticed (16.4.3 was `create-next-app@latest` when these tests were written; it writes Next.js
 * 16.4.3 with TypeScript, ESLint, Tailwind v4 and `cacheComponents: true`).
 */
export const CREATE_NEXT_APP = "create-next-app@16.4.3";

/** The project shapes the tests use, each with the flags that make it. */
export const PROJECT_SHAPES = {
  /** The defaults: `npx create-next-app@latest my-app --yes`. */
  default: [],
  /** The same with its code in `src/`. */
  src: ["--src-dir"],
  /** JavaScript: `npx create-next-app@latest my-app --js --yes` (jsconfig.json, next.config.mjs, app/layout.js). */
  js: ["--js"],
  /** JavaScript with its code in `src/`. */
  "js-src": ["--js", "--src-dir"],
} as const satisfies Record<string, readonly string[]>;

const CACHE = join(tmpdir(), "create-domain-auth-projects", CREATE_NEXT_APP.replace("@", "-"));

/**
 * A fresh copy of a project as create-next-app makes it. The project is made once per machine
 * (without its `node_modules`; a test that builds installs) and copied for each test.
 */
export async function copyOfNextProject(shape: keyof typeof PROJECT_SHAPES): Promise<string> {
  const made = join(CACHE, shape);
  if (!existsSync(join(made, "package.json"))) {
    // Test files run in parallel: one makes the project while the others wait for the lock.
    const script = `
      const { existsSync, rmSync } = require("node:fs");
      if (!existsSync(${JSON.stringify(join(made, "package.json"))})) {
        rmSync(${JSON.stringify(made)}, { recursive: true, force: true });
        require("node:child_process").execFileSync("npx", ["--yes", ${JSON.stringify(CREATE_NEXT_APP)}, ${JSON.stringify(made)}, "--yes", "--skip-install", "--disable-git", ${PROJECT_SHAPES[shape].map((flag) => JSON.stringify(flag)).join(", ")}], { stdio: "pipe", env: { ...process.env, CI: "1", NEXT_TELEMETRY_DISABLED: "1" } });
      }
    `;
    execFileSync("mkdir", ["-p", CACHE]);
    execFileSync("flock", [join(CACHE, ".lock"), process.execPath, "-e", script], { stdio: "pipe", timeout: 180_000 });
  }
  const copy = join(await mkdtemp(join(tmpdir(), `next-${shape}-`)), "my-app");
  await cp(made, copy, { recursive: true });
  return copy;
}
