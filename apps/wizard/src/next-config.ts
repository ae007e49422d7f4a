/**
 * The options domain-auth needs in `next.config`: the core runs in Node.js (native SQLite, worker
 * threads) rather than through the bundler, pages do not announce the framework (docs/security.md#security-headers), and
 * `requireUser({ roles })` can answer with the 403 page (`forbidden()`, behind
 * `experimental.authInterrupts`).
 */
export const CORE_PACKAGE = "@domain-auth/core";

/** The change to make by hand when the wizard cannot edit a config. */
export const MANUAL_CHANGE = `serverExternalPackages: ["${CORE_PACKAGE}"], poweredByHeader: false and experimental: { authInterrupts: true }`;

/** The outcome of editing a `next.config` text. */
export type NextConfigEdit =
  | { readonly kind: "unchanged" }
  | { readonly kind: "edited"; readonly content: string }
  /** The file is not a shape the wizard edits safely; `reason` says what it found. */
  | { readonly kind: "refused"; readonly reason: string };

/** A new `next.config.ts` with the options domain-auth needs. */
export function newNextConfig(): string {
  return `import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // ${CORE_PACKAGE} uses native SQLite and worker threads: Node.js loads it, not the bundler.
  serverExternalPackages: ["${CORE_PACKAGE}"],
  poweredByHeader: false,
  // requireUser({ roles }) shows the 403 page through forbidden().
  experimental: { authInterrupts: true },
};

export default nextConfig;
`;
}

// The few Babel AST shapes the editor reads (magicast parses with Babel, positions included).
interface Node {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}
interface ObjectNode extends Node {
  readonly properties: readonly Node[];
}

const unwrap = (node: Node): Node =>
  node.type === "TSSatisfiesExpression" || node.type === "TSAsExpression" || node.type === "ParenthesizedExpression"
    ? unwrap(node.expression as Node)
    : node;

function keyName(property: Node): string | undefined {
  if (property.type !== "ObjectProperty" || property.computed === true) return undefined;
  const key = property.key as Node;
  if (key.type === "Identifier") return key.name as string;
  if (key.type === "StringLiteral") return key.value as string;
  return undefined;
}

/** The expression a module exports as its config: `export default X` or `module.exports = X`. */
function exportedExpression(body: readonly Node[]): Node | undefined {
  for (const statement of body) {
    if (statement.type === "ExportDefaultDeclaration") return statement.declaration as Node;
    const expression = statement.type === "ExpressionStatement" ? (statement.expression as Node) : undefined;
    if (expression?.type !== "AssignmentExpression") continue;
    const target = expression.left as Node;
    const object = target.object as Node | undefined;
    const property = target.property as Node | undefined;
    if (target.type === "MemberExpression" && object?.name === "module" && property?.name === "exports") return expression.right as Node;
  }
  return undefined;
}

/** The object literal a top-level `const`/`let`/`var` binds to `name`. */
function boundObject(body: readonly Node[], name: string): Node | undefined {
  for (const statement of body) {
    const declaration = statement.type === "ExportNamedDeclaration" ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const declarator of declaration.declarations as Node[]) {
      const id = declarator.id as Node;
      if (id.type === "Identifier" && id.name === name && declarator.init) return unwrap(declarator.init as Node);
    }
  }
  return undefined;
}

function describe(node: Node): string {
  if (node.type === "CallExpression") return "a call that wraps the config (such as withPlugin({ … }))";
  if (node.type.includes("Function")) return "a function";
  return `a ${node.type}`;
}

/** Where the config object is, or why the wizard will not edit it. */
function findConfigObject(body: readonly Node[]): ObjectNode | string {
  const exported = exportedExpression(body);
  if (!exported) return "no default export (export default or module.exports)";
  let config = unwrap(exported);
  if (config.type === "Identifier") {
    const bound = boundObject(body, config.name as string);
    if (!bound) return `the exported ${config.name as string} is not bound to an object literal at the top level`;
    config = bound;
  }
  if (config.type !== "ObjectExpression") return `the default export is ${describe(config)}, not an object literal`;
  const object = config as ObjectNode;
  if (object.properties.some((property) => property.type === "SpreadElement")) return "the config object spreads another object";
  return object;
}

/** The text added for each option the config lacks, or a reason to refuse. */
interface Addition {
  readonly properties: string[];
  readonly packages: { readonly array: Node } | undefined;
  /** The project's own `experimental` object, which lacks `authInterrupts`. */
  readonly experimental: ObjectNode | undefined;
}

/** `experimental: { authInterrupts: true }` as far as it is missing; a string says why the file cannot be edited. */
function plannedInterrupts(option: Node | undefined, properties: string[]): ObjectNode | undefined | string {
  if (!option) {
    properties.push("experimental: { authInterrupts: true }");
    return undefined;
  }
  const value = unwrap(option.value as Node);
  if (value.type !== "ObjectExpression") return "experimental is not an object literal";
  const object = value as ObjectNode;
  return object.properties.some((property) => keyName(property) === "authInterrupts") ? undefined : object;
}

function plannedAdditions(object: ObjectNode, quote: string): Addition | string {
  const byName = new Map(object.properties.map((property) => [keyName(property), property]));
  const properties: string[] = [];
  let packages: Addition["packages"];
  const external = byName.get("serverExternalPackages");
  if (!external) properties.push(`serverExternalPackages: [${quote}${CORE_PACKAGE}${quote}]`);
  else {
    const array = unwrap(external.value as Node);
    if (array.type !== "ArrayExpression") return "serverExternalPackages is not an array literal";
    const elements = array.elements as (Node | null)[];
    if (!elements.some((element) => element?.type === "StringLiteral" && element.value === CORE_PACKAGE)) packages = { array };
  }
  if (!byName.has("poweredByHeader")) properties.push("poweredByHeader: false");
  const experimental = plannedInterrupts(byName.get("experimental"), properties);
  if (typeof experimental === "string") return experimental;
  return { properties, packages, experimental };
}

const lineStart = (text: string, index: number) => text.lastIndexOf("\n", index - 1) + 1;
const indentAt = (text: string, index: number) => /^[ \t]*/.exec(text.slice(lineStart(text, index)))?.[0] ?? "";

/** The position after `end`, skipping a `,` that follows it (with blanks between) on the same line. */
function afterComma(text: string, end: number): { at: number; comma: boolean } {
  const match = /^[ \t]*,/.exec(text.slice(end));
  return match ? { at: end + match[0].length, comma: true } : { at: end, comma: false };
}

/** The end of the line holding `index`, when only blanks or a `//` comment follow; else `undefined`. */
function endOfLine(text: string, index: number): number | undefined {
  const rest = /^[^\n]*/.exec(text.slice(index))?.[0] ?? "";
  return /^[ \t]*(?:\/\/.*)?$/.test(rest) ? index + rest.length : undefined;
}

/** The quote the file's first string literal uses, so an added string matches the file's style. */
function firstStringQuote(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const quote = firstStringQuote(item);
      if (quote) return quote;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const node = value as Node;
  if (node.type === "StringLiteral") return String((node.extra as { raw?: string } | undefined)?.raw ?? '"')[0];
  for (const [key, child] of Object.entries(node)) {
    if (key === "loc" || key === "comments" || key === "leadingComments" || key === "trailingComments" || key === "tokens") continue;
    const quote = firstStringQuote(child);
    if (quote) return quote;
  }
  return undefined;
}

interface Insertion {
  readonly at: number;
  readonly text: string;
}

/** Insertions that append `items` to the list between `open` and `close` (an object or array literal). */
function appendItems(text: string, container: Node, items: readonly Node[], added: readonly string[]): Insertion[] {
  const close = container.end - 1;
  const multiline = text.slice(container.start, close).includes("\n");
  const last = items.at(-1);
  if (!multiline) {
    if (!last) {
      const inner = text.slice(container.start + 1, close);
      const padding = inner.trim() === "" && container.type === "ObjectExpression" ? " " : "";
      return [{ at: container.start + 1, text: `${padding}${added.join(", ")}${padding}` }];
    }
    return [{ at: last.end, text: `, ${added.join(", ")}` }];
  }
  if (!last) {
    const indent = `${indentAt(text, close)}  `;
    return [{ at: lineStart(text, close), text: added.map((item) => `${indent}${item},\n`).join("") }];
  }
  const indent = indentAt(text, last.start);
  const { at, comma } = afterComma(text, last.end);
  const lineEnd = endOfLine(text, at);
  const lines = added.map((item) => `\n${indent}${item}`);
  if (comma && lineEnd !== undefined) return [{ at: lineEnd, text: lines.map((line) => `${line},`).join("") }];
  if (lineEnd !== undefined && lineEnd > last.end)
    return [
      { at: last.end, text: "," },
      { at: lineEnd, text: lines.join(",") },
    ];
  return [{ at: last.end, text: `,${lines.join(",")}` }];
}

/**
 * Whether a `next.config` text turns on `cacheComponents` (`cacheComponents: true` on the exported
 * config object, as create-next-app writes it). A config the wizard cannot read counts as off.
 */
export async function turnsOnCacheComponents(text: string): Promise<boolean> {
  const { parseModule } = await import("magicast");
  let body: readonly Node[];
  try {
    body = (parseModule(text).$ast as unknown as { body: Node[] }).body;
  } catch {
    return false;
  }
  const object = findConfigObject(body);
  if (typeof object === "string") return false;
  const option = object.properties.find((property) => keyName(property) === "cacheComponents");
  const value = option ? unwrap(option.value as Node) : undefined;
  return value?.type === "BooleanLiteral" && value.value === true;
}

/**
 * Adds `"@domain-auth/core"` to `serverExternalPackages` (creating the array when missing),
 * `poweredByHeader: false` when absent and `authInterrupts: true` to `experimental` (creating it)
 * unless the project set it, in a `next.config` of the shapes create-next-app writes: an
 * object literal exported directly or through a top-level variable (`satisfies`/`as` allowed), ESM
 * or CommonJS. The file is parsed with magicast (Babel) and the options are inserted at the AST's
 * positions, so every other byte — comments, quotes, indentation — stays as it is. A config behind
 * a function or a wrapping call (`withPlugin({ … })`) is refused: what it returns cannot be known.
 */
export async function editNextConfig(text: string): Promise<NextConfigEdit> {
  const { parseModule } = await import("magicast");
  let body: readonly Node[];
  try {
    body = (parseModule(text).$ast as unknown as { body: Node[] }).body;
  } catch (error) {
    return { kind: "refused", reason: `it does not parse (${(error as Error).message})` };
  }
  const object = findConfigObject(body);
  if (typeof object === "string") return { kind: "refused", reason: object };
  const quote = firstStringQuote(body) ?? '"';
  const additions = plannedAdditions(object, quote);
  if (typeof additions === "string") return { kind: "refused", reason: additions };
  const insertions: Insertion[] = [];
  if (additions.packages) {
    const { array } = additions.packages;
    insertions.push(...appendItems(text, array, (array.elements as Node[]).filter(Boolean), [`${quote}${CORE_PACKAGE}${quote}`]));
  }
  if (additions.experimental) {
    const { experimental } = additions;
    insertions.push(...appendItems(text, experimental, experimental.properties, ["authInterrupts: true"]));
  }
  if (additions.properties.length > 0) insertions.push(...appendItems(text, object, object.properties, additions.properties));
  if (insertions.length === 0) return { kind: "unchanged" };
  let content = text;
  for (const { at, text: inserted } of insertions.sort((a, b) => b.at - a.at))
    content = content.slice(0, at) + inserted + content.slice(at);
  return { kind: "edited", content };
}
