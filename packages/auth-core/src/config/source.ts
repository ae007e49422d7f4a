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

type Locate = (offset: number | undefined) => { line: number; column: number };

/** The parser's errors and warnings, each reported once per position and message. */
function parserProblems(document: Document.Parsed, at: Locate): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seenProblems = new Set<string>();
  for (const problem of [...document.errors, ...document.warnings]) {
    const severity = problem.name === "YAMLWarning" ? "warning" : "error";
    const diagnostic: Diagnostic = { severity, path: [], message: problem.message.split("\n")[0] ?? problem.code, ...at(problem.pos[0]) };
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`;
    if (!seenProblems.has(key)) diagnostics.push(diagnostic);
    seenProblems.add(key);
  }
  return diagnostics;
}

/** Keys repeated in a map, each reported at its second and later occurrences, in document order. */
function duplicateKeys(node: unknown, path: PathSegment[], at: Locate): Diagnostic[] {
  if (isSeq(node)) return node.items.flatMap((item, index) => duplicateKeys(item, [...path, index], at));
  if (isPair(node)) return duplicateKeys(node.value, path, at);
  if (!isMap(node)) return [];
  const seen = new Set<string>();
  return node.items.flatMap((pair): Diagnostic[] => {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const repeated = key !== undefined && seen.has(key);
    if (key !== undefined) seen.add(key);
    const duplicate: Diagnostic[] = repeated
      ? [{ severity: "error", path: [...path, key], message: `duplicate key '${key}'`, ...at(offsetOf(pair.key)) }]
      : [];
    return [...duplicate, ...duplicateKeys(pair.value, key === undefined ? path : [...path, key], at)];
  });
}

/** Where a finding is reported: the node its path leads to, as far as the path goes (see `Anchor`). */
function offsetOfFinding(document: Document.Parsed, finding: Finding): number | undefined {
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
  if (complete && anchor === "key" && current.pair) return offsetOf(current.pair.key);
  if (complete && anchor === "parent") return offsetOf(current.parent) ?? offsetOf(current.node);
  return offsetOf(current.node) ?? offsetOf(current.pair?.key);
}

/**
 * Parses YAML 1.2 text keeping source positions (so `yes` stays a string).
 * Duplicate keys are reported at their second occurrence; syntax errors at the parser's position.
 */
export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, version: "1.2", prettyErrors: false, logLevel: "error" });
  const at: Locate = (offset) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };

  const diagnostics = [...parserProblems(document, at), ...duplicateKeys(document.contents, [], at)];
  const converted = document.errors.length > 0 ? { data: undefined } : toData(document);
  if (converted.aliasProblem) {
    diagnostics.push({ severity: "error", path: [], message: converted.aliasProblem.message, ...at(converted.aliasProblem.offset) });
  }
  const parsed = document.errors.length === 0 && !converted.aliasProblem;
  const place = (finding: Finding): Diagnostic => ({
    severity: finding.severity,
    path: finding.path,
    message: finding.message,
    ...at(offsetOfFinding(document, finding)),
  });
  return { data: converted.data, parsed, diagnostics, place };
}
