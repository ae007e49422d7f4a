import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Browser tests: one production build, then one server per file, files one after another; the scaffold tests apart. */
export default defineConfig({
  test: {
    dir: here("."),
    include: ["**/*.test.ts"],
    // The scaffold tests are a suite of their own (vitest.scaffold.config.ts).
    exclude: ["**/node_modules/**", "scaffold.test.ts"],
    globalSetup: [here("./global-setup.ts")],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
