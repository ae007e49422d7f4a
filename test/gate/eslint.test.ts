import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

/**
 * apps/web is what the wizard scaffolds, so it must pass the `eslint` of a project made by create-next-app:
 * eslint-config-next with its React Compiler rules, configured as create-next-app configures it.
 */
const WEB = fileURLToPath(new URL("../../apps/web/", import.meta.url));
const ESLINT = join(dirname(createRequire(join(WEB, "package.json")).resolve("eslint/package.json")), "bin", "eslint.js");

test("apps/web passes eslint-config-next with no error and no warning", { timeout: 120_000 }, () => {
  const result = spawnSync(process.execPath, [ESLINT, "--max-warnings", "0", "."], { cwd: WEB, encoding: "utf8" });
  expect(`${result.stdout}${result.stderr}`).toBe("");
  expect(result.status).toBe(0);
});
