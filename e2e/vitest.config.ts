import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Browser tests: one production build, then one server per file, files one after another. */
export default defineConfig({
  test: {
    dir: here("."),
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: [here("./global-setup.ts")],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
