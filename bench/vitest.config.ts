import { defineConfig } from "vitest/config";

// The smoke version of the benchmarks (suite "bench-smoke" of `npm test`): every in-process
// benchmark runs for about a second; only that it produces numbers is checked. Run from the
// repository root: `npx vitest run --config bench/vitest.config.ts`.
export default defineConfig({
  test: {
    include: ["bench/*.test.mjs"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
