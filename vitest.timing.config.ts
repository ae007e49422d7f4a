import { defineConfig } from "vitest/config";

/**
 * The timing tests (suite "timing" of `npm test`): they compare how long answers take for known and
 * unknown accounts, so `npm test` runs them once every other suite has ended, on a quiet machine, one
 * file after another.
 */
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    include: ["packages/auth-core/test/api/*-timing.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
