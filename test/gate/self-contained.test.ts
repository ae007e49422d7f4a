import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "./source-files.js";

/**
 * The repository stands alone: its docs are the specification its users and contributors read, so
 * no tracked file sends them to a document outside it, and every link between the docs lands on a
 * file that exists and a heading it has.
 */

/** Every tracked text file, relative to the root. */
function trackedFiles(): string[] {
  const listed = spawnSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" });
  return listed.stdout.split("\n").filter((path) => path !== "" && !/\.(png|jpe?g|ico|woff2?)$/.test(path) && !path.endsWith("LICENSE"));
}

/** A Markdown heading as GitHub makes its anchor: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
}

test("no tracked file cites a specification outside the repository", () => {
  // Spelled in pieces, so that this file does not match itself.
  const outside = new RegExp(
    ["\\bCON" + "TRACT\\s*§?\\s*\\d", "\\.\\./sha" + "red/", "\\bthe con" + "tract\\b", "\\bSPEC-" + "auth\\b"].join("|"),
    "i",
  );
  const citing = trackedFiles().filter((path) => outside.test(readFileSync(join(ROOT, path), "utf8")));
  expect(citing).toEqual([]);
});

test("every link from one doc to another lands on a file and a heading that exist", () => {
  const broken: string[] = [];
  const docs = trackedFiles().filter((path) => path.endsWith(".md"));
  for (const doc of docs) {
    for (const [, target, anchor] of readFileSync(join(ROOT, doc), "utf8").matchAll(/\]\(([\w./-]+\.md)(?:#([\w-]+))?\)/g)) {
      const file = join(ROOT, dirname(doc), target ?? "");
      if (!existsSync(file)) {
        broken.push(`${doc} → ${target}`);
        continue;
      }
      if (!anchor) continue;
      const headings = [...readFileSync(file, "utf8").matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1] ?? ""));
      if (!headings.includes(anchor)) broken.push(`${doc} → ${target}#${anchor}`);
    }
  }
  expect(broken).toEqual([]);
});
