import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { packageSourceFiles, ROOT } from "./source-files.js";

// docs/architecture.md's table "The core, folder by folder" is data: each row names one or more parts
// of packages/auth-core/src (a folder `name/` or a file `name.ts`) and the parts they may import
// (backticked names, `—` for none, or `everything`). The imports of the source are checked against it.

const SOURCE = "packages/auth-core/src";
const TABLE_HEADING = "## The core, folder by folder";

/** The part of the core a source file belongs to: its folder below `src/` (`store/`), or its own name (`env.ts`). */
function partOf(path: string): string {
  const [first = "", ...rest] = relative(join(ROOT, SOURCE), join(ROOT, path)).split("/");
  return rest.length > 0 ? `${first}/` : first.replace(/\.(js|cjs)$/, ".ts");
}

/** The files of the core a file imports, re-exports or loads, types included (`./x.js` is `./x.ts` or `./x.js`). */
function importsOf(path: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, path), "utf8"), true, true);
  return importedFiles
    .map((file) => file.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(join(ROOT, path)), name))
    .map((target) => [target.replace(/\.js$/, ".ts"), target].find((candidate) => existsSync(candidate)))
    .filter((target): target is string => target !== undefined)
    .map((target) => relative(ROOT, target));
}

interface Row {
  readonly parts: readonly string[];
  /** `null`: everything. */
  readonly mayImport: ReadonlySet<string> | null;
}

/** The table's rows, read from the document. */
function tableRows(): Row[] {
  const document = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const start = document.indexOf(TABLE_HEADING);
  expect(start, `docs/architecture.md has the heading "${TABLE_HEADING}"`).toBeGreaterThan(-1);
  const lines = document.slice(start).split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Folder | Holds | May import |"));
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split(" | ");
    const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
    const last = (cells[cells.length - 1] ?? "").replace(/\|$/, "").trim();
    rows.push({ parts: names(cells[0] ?? ""), mayImport: last === "everything" ? null : new Set(names(last)) });
  }
  return rows;
}

describe("docs/architecture.md's table of the core", () => {
  const rows = tableRows();
  const files = packageSourceFiles().filter((path) => path.startsWith(`${SOURCE}/`) && /\.(ts|js|cjs)$/.test(path));
  const parts = new Set(files.map(partOf));

  test("has one row for every folder and top-level file of the core, and none for what is not there", () => {
    const listed = rows.flatMap((row) => row.parts);
    expect(
      listed.filter((part, index) => listed.indexOf(part) !== index),
      "parts listed twice",
    ).toEqual([]);
    expect([...parts].filter((part) => !listed.includes(part)).sort(), "parts without a row").toEqual([]);
    expect(
      listed.filter((part) => !parts.has(part)),
      "rows for parts that do not exist",
    ).toEqual([]);
    const named = rows.flatMap((row) => [...(row.mayImport ?? [])]);
    expect(
      named.filter((part) => !parts.has(part)),
      "'may import' names that are no part of the core",
    ).toEqual([]);
  });

  test("every import between parts of the core is one its row allows", () => {
    const allowed = new Map(rows.flatMap((row) => row.parts.map((part) => [part, row.mayImport] as const)));
    const refused: string[] = [];
    for (const file of files) {
      const from = partOf(file);
      const mayImport = allowed.get(from);
      if (mayImport === null || mayImport === undefined) continue;
      for (const target of importsOf(file)) {
        const to = partOf(target);
        if (to !== from && !mayImport.has(to)) refused.push(`${file} imports ${target}: ${from} may not import ${to}`);
      }
    }
    expect(refused).toEqual([]);
  });

  test("every part a row allows is one it imports: the table says no more than the code does", () => {
    const used = new Map<string, Set<string>>();
    for (const file of files) {
      const from = partOf(file);
      for (const target of importsOf(file)) {
        const to = partOf(target);
        if (to !== from) used.set(from, (used.get(from) ?? new Set()).add(to));
      }
    }
    const unused = rows.flatMap((row) =>
      [...(row.mayImport ?? [])]
        .filter((part) => !row.parts.some((own) => own === part || used.get(own)?.has(part)))
        .map((part) => `${row.parts.join(", ")} lists ${part}, which none of them imports`),
    );
    expect(unused).toEqual([]);
  });
});
