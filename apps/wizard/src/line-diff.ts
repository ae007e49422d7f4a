/** One line of a diff: kept (` `), removed (`-`) or added (`+`). */
export interface DiffLine {
  readonly kind: " " | "-" | "+";
  readonly text: string;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\n$/, "").split("\n");
}

/** A line diff of two texts (longest common subsequence; the files are small). */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  const at = (i: number, j: number) => common[i]?.[j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      (common[i] as number[])[j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: " ", text: a[i++] as string });
      j++;
    } else if (i < a.length && (j === b.length || at(i + 1, j) >= at(i, j + 1))) {
      lines.push({ kind: "-", text: a[i++] as string });
    } else {
      lines.push({ kind: "+", text: b[j++] as string });
    }
  }
  return lines;
}

/**
 * The changed lines with `context` unchanged lines around each change; `…` marks skipped lines.
 *
 * @returns an empty list when the texts are equal.
 */
export function changedHunks(before: string, after: string, options: { context: number } = { context: 1 }): string[] {
  const lines = diffLines(before, after);
  const near = (index: number) =>
    lines.slice(Math.max(0, index - options.context), index + options.context + 1).some((line) => line.kind !== " ");
  const result: string[] = [];
  let skipped = false;
  lines.forEach((line, index) => {
    if (!near(index)) {
      skipped = true;
      return;
    }
    if (skipped && result.length > 0) result.push("  …");
    skipped = false;
    result.push(`${line.kind} ${line.text}`);
  });
  return result;
}
