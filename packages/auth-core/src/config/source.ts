import { type Document, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument, visit } from "yaml";
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
  /** `false` when the text has YAML syntax errors or aliases that cannot be expanded (then `data` is `undefined`). */
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

const MAX_ALIAS_COUNT = 100;

/** Converts the document to plain data; an alias that cannot be expanded is a problem, not a crash. */
function toData(document: Document.Parsed): { data: unknown; aliasProblem?: { message: string; offset: number | undefined } } {
  try {
    return { data: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    let unresolved: Node | undefined;
    let first: Node | undefined;
    visit(document, {
      Alias(_key, node) {
        first ??= node;
        if (!unresolved && node.resolve(document) === undefined) unresolved = node;
      },
    });
    if (unresolved && isAlias(unresolved)) {
      return {
        data: undefined,
        aliasProblem: { message: `alias '*${unresolved.source}' has no anchor before it`, offset: offsetOf(unresolved) },
      };
    }
    const reason = error instanceof Error && /excessive alias count/i.test(error.message) ? "aliases expand too many times" : String(error);
    return { data: undefined, aliasProblem: { message: reason, offset: offsetOf(first) } };
  }
}

/**
 * Parses YAML 1.2 text keeping source positions (so `yes` stays a string).
 * Duplicate keys are reported at their second occurrence; syntax errors at the parser's position.
 */
export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, version: "1.2", prettyErrors: false, logLevel: "error" });
  const at = (offset: number | undefined) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };

  const diagnostics: Diagnostic[] = [];
  const seenProblems = new Set<string>();
  for (const problem of [...document.errors, ...document.warnings]) {
    const severity = problem.name === "YAMLWarning" ? "warning" : "error";
    const diagnostic: Diagnostic = { severity, path: [], message: problem.message.split("\n")[0] ?? problem.code, ...at(problem.pos[0]) };
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`;
    if (!seenProblems.has(key)) diagnostics.push(diagnostic);
    seenProblems.add(key);
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

  const converted = document.errors.length > 0 ? { data: undefined } : toData(document);
  if (converted.aliasProblem) {
    diagnostics.push({ severity: "error", path: [], message: converted.aliasProblem.message, ...at(converted.aliasProblem.offset) });
  }
  const parsed = document.errors.length === 0 && !converted.aliasProblem;

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

  return { data: converted.data, parsed, diagnostics, place };
}
