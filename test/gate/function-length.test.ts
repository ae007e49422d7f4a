import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";
import { appSourceFiles, packageSourceFiles, ROOT } from "./source-files.js";

/**
 * The most lines a function may take, its signature and closing brace included (JSDoc not): in the
 * packages, and in the apps, where a component's JSX counts too.
 */
const MAX_FUNCTION_LINES = { packages: 60, apps: 100 } as const;

/** Every function of one file longer than `max` lines, as `path:line name (lines)`. */
function longFunctions(path: string, max: number): string[] {
  const source = ts.createSourceFile(path, readFileSync(join(ROOT, path), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.end).line - start + 1;
      const name = node.name?.getText(source) ?? "(anonymous)";
      if (lines > max) found.push(`${path}:${start + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in packages/ is longer than ${MAX_FUNCTION_LINES.packages} lines`, () => {
  const files = packageSourceFiles();
  expect(files.length).toBeGreaterThan(50);
  expect(files.flatMap((path) => longFunctions(path, MAX_FUNCTION_LINES.packages))).toEqual([]);
});

test(`no function in apps/ is longer than ${MAX_FUNCTION_LINES.apps} lines`, () => {
  const files = appSourceFiles();
  expect(files).toContain("apps/wizard/src/wizard.ts");
  expect(files).toContain("apps/web/components/domain-auth/entity-records.tsx");
  expect(files).toContain("apps/web/server.mjs");
  expect(files.flatMap((path) => longFunctions(path, MAX_FUNCTION_LINES.apps))).toEqual([]);
});
