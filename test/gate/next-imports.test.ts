import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";
import { packageSourceFiles, ROOT } from "./source-files.js";

/** Next.js and React are the project's: the core reaches them only from `src/next/` (`@domain-auth/core/next`). */
const FRAMEWORK = /^(next|react|react-dom)(\/|$)/;

test("no file of the core outside src/next imports Next.js or React", () => {
  const files = packageSourceFiles().filter((path) => path.startsWith("packages/auth-core/src/"));
  expect(files.length).toBeGreaterThan(50);
  const offenders = files.flatMap((path) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, path), "utf8"), true, true);
    const framework = importedFiles.map((file) => file.fileName).filter((name) => FRAMEWORK.test(name));
    return framework.length > 0 && !path.startsWith("packages/auth-core/src/next/") ? [`${path}: ${framework.join(", ")}`] : [];
  });
  expect(offenders).toEqual([]);
  const next = readFileSync(join(ROOT, "packages/auth-core/src/next/index.ts"), "utf8");
  expect(next).toMatch(/from "next\/headers\.js"/);
});
