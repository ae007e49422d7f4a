import { chmod } from "node:fs/promises";
import { build } from "esbuild";

const outfile = "dist/cli.js";
await build({
  entryPoints: ["src/cli.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["source"],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  external: ["@clack/prompts", "yaml", "zod", "better-sqlite3", "pg"],
  logLevel: "warning",
});
await chmod(outfile, 0o755);
