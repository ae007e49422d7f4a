export type PathSegment = string | number;
export type Severity = "error" | "warning";

/** One problem found in a `domain.yaml` (or bridge manifest), with its source position. */
export interface Diagnostic {
  readonly severity: Severity;
  /** Where in the document, e.g. `["auth", "roles", 2]`. */
  readonly path: readonly PathSegment[];
  readonly message: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** `["auth", "roles", 2]` → `auth.roles[2]`; the empty path is `(root)`. */
export function formatPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return "(root)";
  return path
    .map((segment, index) => {
      if (typeof segment === "number") return `[${segment}]`;
      const plain = /^[A-Za-z_@*][A-Za-z0-9_-]*$/.test(segment);
      if (!plain) return `[${JSON.stringify(segment)}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join("");
}

/** `FILE:LINE:COL  path  message`, with `warning:` before the message of a warning. */
export function formatDiagnostic(file: string, diagnostic: Diagnostic): string {
  const prefix = diagnostic.severity === "warning" ? "warning: " : "";
  return `${file}:${diagnostic.line}:${diagnostic.column}  ${formatPath(diagnostic.path)}  ${prefix}${diagnostic.message}`;
}

/** Orders diagnostics by position, so a report reads top to bottom. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Thrown when a configuration cannot be used; carries every problem found. */
export class DomainConfigError extends Error {
  override readonly name = "DomainConfigError";
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];

  constructor(file: string, diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const first = errors[0];
    const summary = first ? formatDiagnostic(file, first) : file;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
    super(`invalid ${file}: ${summary}${more}`);
    this.file = file;
    this.diagnostics = diagnostics;
  }
}
