import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";
import { packageSourceFiles, ROOT } from "./source-files.js";

/** The package files `path` imports or re-exports, types included, resolved from `./x.js` to `./x.ts`. */
function importsOf(path: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, path), "utf8"), true, true);
  return importedFiles
    .map((file) => file.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(ROOT, resolve(dirname(join(ROOT, path)), name.replace(/\.js$/, ".ts"))))
    .filter((target) => existsSync(join(ROOT, target)));
}

/** The groups of files that import each other, directly or through others (Tarjan's strongly connected components). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) as number);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

test("no module of packages/ imports itself back, not even for a type", () => {
  const files = packageSourceFiles().filter((path) => path.endsWith(".ts"));
  const graph = new Map(files.map((path) => [path, importsOf(path)]));
  expect(cyclesOf(graph)).toEqual([]);
});
