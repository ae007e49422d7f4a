import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";
import { packageSourceFiles, ROOT } from "./source-files.js";

/** The most lines a function of the packages may take, its signature and closing brace included (JSDoc not). */
const MAX_FUNCTION_LINES = 60;

/** Every function longer than the limit in one file, as `path:line name (lines)`. */
function longFunctions(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(join(ROOT, path), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.end).line - start + 1;
      const name = node.name?.getText(source) ?? "(anonymous)";
      if (lines > MAX_FUNCTION_LINES) found.push(`${path}:${start + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in packages/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const files = packageSourceFiles();
  expect(files.length).toBeGreaterThan(50);
  expect(files.flatMap(longFunctions)).toEqual([]);
});
