// Builds what the web app runs on when it is missing or older than its sources: auth-core's
// dist (through the root `npm run build`) and the Next.js production build in apps/web/.next.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const web = dirname(fileURLToPath(import.meta.url));
const root = resolve(web, "../..");
const SKIPPED = new Set(["node_modules", ".next", ".data", "dist"]);

const TARGETS = [
  {
    name: "auth-core and the wizard",
    output: join(root, "packages/auth-core/dist/index.js"),
    // The wizard's templates are copied from the web app's scaffolded folders by its build.
    sources: [
      "packages/auth-core/src",
      "packages/auth-core/package.json",
      "apps/wizard/src",
      "apps/wizard/templates/manifest.yaml",
      ...["app/(domain-auth)", "components/domain-auth", "lib/domain-auth"].map((folder) => `apps/web/${folder}`),
    ].map((path) => join(root, path)),
    command: ["run", "build"],
  },
  {
    name: "the web app",
    output: join(web, ".next/BUILD_ID"),
    sources: [
      ...["app", "components", "lib", "proxy.ts", "next.config.ts", "tsconfig.json", "package.json"].map((path) => join(web, path)),
      // server.mjs loads auth-core's dist at run time, but in this monorepo Next.js bundles the core's
      // sources (a workspace package stays out of serverExternalPackages) into the proxy, the route
      // handlers and the pages' server code, and @domain-auth/core/policy into the client bundles:
      // a change anywhere in them calls for a new build.
      join(root, "packages/auth-core/src"),
    ],
    command: ["run", "build", "--workspace", "@domain-auth/web"],
  },
];

/** The newest modification time under `path` (its build folders and dependencies left out); 0 when it is missing. */
export function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestChange(join(path, entry)));
  }
  return newest;
}

function isStale(target) {
  if (!existsSync(target.output)) return true;
  const built = statSync(target.output).mtimeMs;
  return target.sources.some((source) => newestChange(source) > built);
}

/**
 * Runs each build whose output is missing or older than its sources; throws when one fails.
 * @returns the names of the builds that ran.
 */
export function ensureBuilt() {
  const ran = [];
  for (const target of TARGETS) {
    if (!isStale(target)) continue;
    console.log(`Building ${target.name}…`);
    const result = spawnSync("npm", target.command, {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (result.status !== 0) throw new Error(`building ${target.name} failed (npm ${target.command.join(" ")})`);
    ran.push(target.name);
  }
  return ran;
}
