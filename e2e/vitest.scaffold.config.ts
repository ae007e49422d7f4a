import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The wizard in projects create-next-app makes (suite "scaffold" of `npm test`): its own suite, so it
 * runs beside the other browser tests. Each project has its own folder, install, build and ports.
 */
export default defineConfig({
  test: {
    dir: here("."),
    include: ["scaffold.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: [here("./scaffold-setup.ts")],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
