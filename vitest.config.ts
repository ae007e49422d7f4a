import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "apps/wizard/**/*.test.ts",
      "apps/web/test/**/*.test.ts",
      "test/gate/*.test.ts",
    ],
    // The timing tests run apart, on a quiet machine (vitest.timing.config.ts).
    exclude: ["**/node_modules/**", "**/dist/**", "packages/auth-core/test/api/*-timing.test.ts"],
    // Two files at a time even on two cores (Vitest's default leaves one core to itself: one file at a
    // time there). Each file has its own databases, ports and folders, and the half of the suite that
    // waits on SQLite, PostgreSQL and child processes leaves the cores room: the suite takes half as long.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
