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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
