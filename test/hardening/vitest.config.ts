import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Hardening: fuzzing, forged tokens, crashes and several instances against the production server.
 * One build, then servers of its own per file; files one after another (two cores, bounded time).
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: ["./global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
