import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Browser tests: one production build, then one server per file, files one after another. */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: ["./global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    retry: process.env.CI ? 1 : 0,
  },
});
