import { chmod, rm } from "node:fs/promises";
import { build } from "esbuild";

// Everything is bundled (fewer files to resolve at start-up); the entry loads only what the first
// prompt needs, and validation (with zod) loads in a chunk while that prompt is on screen.
await rm("dist", { recursive: true, force: true });
await build({
  entryPoints: ["src/cli.ts"],
  outdir: "dist",
  chunkNames: "[name]-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["source"],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  external: ["better-sqlite3", "pg"],
  logLevel: "warning",
});
await chmod("dist/cli.js", 0o755);
