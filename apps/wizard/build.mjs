import { chmod, rm } from "node:fs/promises";
import { build } from "esbuild";

// The entry loads only what the first prompt needs; validation (and zod) load in a chunk afterwards.
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
  external: ["@clack/prompts", "yaml", "zod", "better-sqlite3", "pg"],
  logLevel: "warning",
});
await chmod("dist/cli.js", 0o755);
