import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The smoke version of the benchmarks (suite "bench-smoke" of `npm test`): every in-process
// benchmark runs for about a second; only that it produces numbers is checked.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["*.test.mjs"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
