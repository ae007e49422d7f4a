// The web app as the bench serves it through Next.js: a copy of apps/web with one more route, a
// trivial route handler answering a constant JSON, built once. `me` and that route are then measured
// on the same server, from the same build.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = fileURLToPath(new URL("../../apps/web/", import.meta.url));
/** Inside the repository, so the copy resolves its packages from the root's node_modules. */
export const VARIANT = fileURLToPath(new URL("../.web-variant/", import.meta.url));
/** The trivial route's path. */
export const TRIVIAL_PATH = "/bench-constant";
const SKIPPED = new Set(["node_modules", ".next", ".data"]);
const ROUTE = `// A route handler that does nothing but answer a constant JSON: what Next.js costs alone.
export const dynamic = "force-dynamic";

const BODY = { ok: true };

export function GET(): Response {
  return Response.json(BODY);
}
`;

/**
 * Copies apps/web to bench/.web-variant, adds the trivial route and builds it with Next.js, unless
 * the copy already holds a build of the same sources. Returns the variant's server script.
 */
export function buildWebVariant() {
  const stamp = join(VARIANT, ".sources");
  const sources = JSON.stringify(fingerprint());
  if (existsSync(join(VARIANT, ".next", "BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === sources)
    return join(VARIANT, "server.mjs");
  rmSync(VARIANT, { recursive: true, force: true });
  cpSync(WEB, VARIANT, { recursive: true, filter: (source) => !SKIPPED.has(source.slice(WEB.length).split("/")[0] ?? "") });
  mkdirSync(join(VARIANT, "app", TRIVIAL_PATH.slice(1)), { recursive: true });
  writeFileSync(join(VARIANT, "app", TRIVIAL_PATH.slice(1), "route.ts"), ROUTE);
  const built = spawnSync(process.execPath, [createRequire(import.meta.url).resolve("next/dist/bin/next"), "build"], {
    cwd: VARIANT,
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (built.status !== 0) throw new Error(`next build of the bench's web app failed:\n${built.stdout}\n${built.stderr}`);
  writeFileSync(stamp, sources);
  return join(VARIANT, "server.mjs");
}

/** Paths and modification times of apps/web's sources and of auth-core's. */
function fingerprint() {
  const core = fileURLToPath(new URL("../../packages/auth-core/src/", import.meta.url));
  return [WEB, core].map((dir) => {
    const listing = spawnSync(
      "find",
      [
        dir,
        "(",
        "-name",
        "node_modules",
        "-o",
        "-name",
        ".next",
        "-o",
        "-name",
        ".data",
        ")",
        "-prune",
        "-o",
        "-type",
        "f",
        "-printf",
        "%P %T@\\n",
      ],
      {
        encoding: "utf8",
      },
    );
    return listing.stdout.split("\n").sort().join("\n");
  });
}
