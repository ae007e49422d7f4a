import { isMap, isScalar, isSeq, type Node, type Pair, stringify, type YAMLMap } from "yaml";

/** One replacement in a text: `[start, end)` becomes `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Applies edits that do not overlap; edits at one position keep the order they were given in. */
export function applyTextEdits(source: string, edits: readonly TextEdit[]): string {
  const ordered = edits.map((edit, order) => ({ ...edit, order })).sort((a, b) => b.start - a.start || b.order - a.order);
  let result = source;
  for (const edit of ordered) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** A value as a one-line YAML scalar: plain when that reads back the same, quoted otherwise. */
export function renderScalar(value: string | number | boolean): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

/** A list as a one-line flow sequence: `[Admin, Editor]`. */
export function renderFlowList(values: readonly string[]): string {
  return `[${values.map(renderScalar).join(", ")}]`;
}

/** A map of scalars and lists of scalars as a one-line flow map: `{ type: string, default: Reader }`. */
export function renderFlowMap(entries: Readonly<Record<string, string | number | boolean | readonly string[]>>): string {
  const items = Object.entries(entries).map(
    ([key, value]) => `${key}: ${typeof value === "object" ? renderFlowList(value) : renderScalar(value)}`,
  );
  return `{ ${items.join(", ")} }`;
}

function rangeOf(node: Node): [number, number, number] {
  if (!node.range) throw new Error("the YAML node has no source range");
  return node.range;
}

/** The start of the line after the one `position` is on (or `position` when it is a line start). */
function nextLineStart(source: string, position: number): number {
  if (position > 0 && source[position - 1] === "\n") return position;
  const newline = source.indexOf("\n", position);
  return newline === -1 ? source.length : newline + 1;
}

function lineStart(source: string, position: number): number {
  return source.lastIndexOf("\n", position - 1) + 1;
}

function columnOf(source: string, position: number): number {
  return position - lineStart(source, position);
}

function keyNode(pair: Pair): Node {
  if (!isScalar(pair.key)) throw new Error("only plain keys are supported");
  return pair.key;
}

/** Where a pair's value ends (for a scalar or flow value, the end of its text; for a block value, the start of the next line). */
function pairValueEnd(pair: Pair): number {
  const value = pair.value as Node | null;
  return value?.range ? value.range[1] : rangeOf(keyNode(pair))[1];
}

/** Replaces the text of a node's value (a scalar or a collection) with `text`. */
export function replaceNode(node: Node, text: string): TextEdit {
  const [start, end] = rangeOf(node);
  return { start, end, text };
}

/** Replaces a sequence with `values`, keeping its style: flow `[A, B]`, or block `- A` lines at the same indent. */
export function replaceList(source: string, seq: Node, values: readonly string[]): TextEdit {
  const [start, end] = rangeOf(seq);
  const stop = trimEnd(source, start, end);
  if (isSeq(seq) && !seq.flow && values.length > 0) {
    const indent = " ".repeat(columnOf(source, start));
    return { start, end: stop, text: values.map((value) => `- ${renderScalar(value)}`).join(`\n${indent}`) };
  }
  return { start, end: stop, text: renderFlowList(values) };
}

function trimEnd(source: string, start: number, end: number): number {
  let position = end;
  while (position > start && /\s/.test(source[position - 1] ?? "")) position--;
  return position;
}

/**
 * Adds `key: valueText` to a map: inside the braces of a flow map, or as a new line of a block map,
 * placed after the pair `after` (or first when `after` is `null`, last when it is `undefined`).
 */
export function insertPair(source: string, map: YAMLMap, key: string, valueText: string, after?: Pair | null): TextEdit {
  const [start, end] = rangeOf(map);
  if (map.flow) {
    const close = source.lastIndexOf("}", end - 1);
    if (map.items.length === 0) return { start, end, text: `{ ${key}: ${valueText} }` };
    const anchor = after === null ? undefined : (after ?? map.items.at(-1));
    if (anchor === undefined) {
      const first = rangeOf(keyNode(map.items[0] as Pair))[0];
      return { start: first, end: first, text: `${key}: ${valueText}, ` };
    }
    const position = anchor === map.items.at(-1) ? trimEnd(source, start, close) : pairValueEnd(anchor);
    return { start: position, end: position, text: `, ${key}: ${valueText}` };
  }
  const firstKey = map.items[0] ? rangeOf(keyNode(map.items[0])) : undefined;
  const indent = " ".repeat(firstKey ? columnOf(source, firstKey[0]) : 2);
  const line = `${indent}${key}: ${valueText}\n`;
  if (after === null && firstKey) {
    const position = lineStart(source, firstKey[0]);
    return { start: position, end: position, text: line };
  }
  const anchor = after ?? map.items.at(-1);
  const position = anchor ? nextLineStart(source, pairValueEnd(anchor)) : nextLineStart(source, start);
  const needsNewline = position === source.length && source.length > 0 && !source.endsWith("\n");
  return { start: position, end: position, text: needsNewline ? `\n${line}` : line };
}

/** Removes a pair from a map: `, key: value` from a flow map, or its line(s) from a block map. */
export function removePair(source: string, map: YAMLMap, pair: Pair): TextEdit {
  const index = map.items.indexOf(pair);
  const keyStart = rangeOf(keyNode(pair))[0];
  const valueEnd = pairValueEnd(pair);
  if (map.flow) {
    const previous = map.items[index - 1];
    if (previous) return { start: pairValueEnd(previous), end: valueEnd, text: "" };
    const next = map.items[index + 1];
    return { start: keyStart, end: next ? rangeOf(keyNode(next))[0] : valueEnd, text: "" };
  }
  return { start: lineStart(source, keyStart), end: nextLineStart(source, valueEnd), text: "" };
}

/** Appends a top-level block to the end of a document: `key:` then indented `lines`. */
export function appendBlock(source: string, key: string, lines: readonly string[], indent: string): TextEdit {
  const separator = source.length === 0 || source.endsWith("\n") ? "" : "\n";
  const body = lines.map((line) => `${indent}${line}\n`).join("");
  return { start: source.length, end: source.length, text: `${separator}${key}:\n${body}` };
}

/** The indentation unit a document uses (the column of its first nested key), two spaces when unknown. */
export function indentUnitOf(source: string, root: Node | null): string {
  if (isMap(root)) {
    for (const pair of root.items) {
      const value = pair.value as Node | null;
      if (isMap(value) && !value.flow && value.items[0]) {
        const column = columnOf(source, rangeOf(keyNode(value.items[0]))[0]);
        if (column > 0) return " ".repeat(column);
      }
    }
  }
  return "  ";
}
