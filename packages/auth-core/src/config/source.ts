import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument } from "yaml";
import type { Diagnostic, PathSegment, Severity } from "./diagnostics.js";

/** Where a problem is reported: on a key, on its value, or on the map that lacks a key. */
export type Anchor = "key" | "value" | "parent";

/** A problem before it has a source position. */
export interface Finding {
  readonly severity: Severity;
  readonly path: readonly PathSegment[];
  readonly message: string;
  readonly anchor?: Anchor;
}

/** A parsed YAML text that can turn document paths into line and column. */
export interface YamlSource {
  /** The plain data (`undefined` for an empty document). */
  readonly data: unknown;
  /** `false` when the text has YAML syntax errors (then `data` is `undefined`). */
  readonly parsed: boolean;
  /** Syntax errors and duplicate keys, already positioned. */
  readonly diagnostics: readonly Diagnostic[];
  /** Gives a finding the position of the node its path leads to. */
  place(finding: Finding): Diagnostic;
}

type Located = { node: Node | null; pair: Pair | null; parent: Node | null };

function childOf(node: Node | null, segment: PathSegment): Located | undefined {
  if (isMap(node)) {
    const pair = node.items.findLast((item) => isScalar(item.key) && String(item.key.value) === String(segment));
    if (pair) return { node: (pair.value as Node | null) ?? null, pair: pair as Pair, parent: node };
  }
  if (isSeq(node) && typeof segment === "number") {
    const item = node.items[segment] as Node | undefined;
    if (item) return { node: item, pair: null, parent: node };
  }
  return undefined;
}

function offsetOf(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}

/**
 * Parses YAML 1.2 text keeping source positions (so `yes` stays a string).
 * Duplicate keys are reported at their second occurrence; syntax errors at the parser's position.
 */
export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, version: "1.2", prettyErrors: false });
  const at = (offset: number | undefined) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };

  const diagnostics: Diagnostic[] = [];
  for (const error of document.errors) {
    diagnostics.push({ severity: "error", path: [], message: error.message.split("\n")[0] ?? error.code, ...at(error.pos[0]) });
  }
  for (const warning of document.warnings) {
    diagnostics.push({ severity: "warning", path: [], message: warning.message.split("\n")[0] ?? warning.code, ...at(warning.pos[0]) });
  }

  const findDuplicates = (node: unknown, path: PathSegment[]): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key !== undefined) {
          if (seen.has(key)) {
            diagnostics.push({ severity: "error", path: [...path, key], message: `duplicate key '${key}'`, ...at(offsetOf(pair.key)) });
          }
          seen.add(key);
        }
        findDuplicates(pair.value, key === undefined ? path : [...path, key]);
      }
    } else if (isSeq(node)) {
      for (const [index, item] of node.items.entries()) findDuplicates(item, [...path, index]);
    } else if (isPair(node)) {
      findDuplicates(node.value, path);
    }
  };
  findDuplicates(document.contents, []);

  const data = document.errors.length > 0 ? undefined : document.toJS({ maxAliasCount: 100 });

  const place = (finding: Finding): Diagnostic => {
    let current: Located = { node: document.contents as Node | null, pair: null, parent: null };
    let reached = 0;
    for (const segment of finding.path) {
      const next = childOf(current.node, segment);
      if (!next) break;
      current = next;
      reached++;
    }
    const complete = reached === finding.path.length;
    const anchor = finding.anchor ?? "value";
    let offset: number | undefined;
    if (complete && anchor === "key" && current.pair) offset = offsetOf(current.pair.key);
    else if (complete && anchor === "parent") offset = offsetOf(current.parent) ?? offsetOf(current.node);
    else offset = offsetOf(current.node) ?? offsetOf(current.pair?.key);
    return { severity: finding.severity, path: finding.path, message: finding.message, ...at(offset) };
  };

  return { data, parsed: document.errors.length === 0, diagnostics, place };
}
