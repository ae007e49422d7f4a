import { CORE_PACKAGE } from "./next-config.js";

/** The `start` script create-next-app writes, which the wizard points at the production server. */
export const STOCK_START = "next start";
/** The scaffolded production server, which records real client addresses. */
export const SERVER_START = "node server.mjs";

/** The renderer of the API reference page (`/docs`), bundled into the app: its prebuilt bundle has no dependency. */
export const API_REFERENCE_PACKAGE = "swagger-ui-dist";
/** The range of {@link API_REFERENCE_PACKAGE} the scaffolded pages are built and tested with (apps/web's, checked by a test). */
export const API_REFERENCE_RANGE = "^5.35.0";

/** What `withDomainAuth` changed, for the summary. */
export interface PackageJsonEdit {
  /** The text to write, or `null` when nothing changes. */
  readonly content: string | null;
  readonly addedDependency: boolean;
  /** {@link API_REFERENCE_PACKAGE} was added to `dependencies`. */
  readonly addedApiReference: boolean;
  readonly changedStart: boolean;
}

type Manifest = Record<string, unknown>;

/** The indentation of a JSON text's first nested line (two spaces when it has none). */
function indentOf(text: string): string {
  return /^\{\r?\n([ \t]+)/.exec(text)?.[1] ?? "  ";
}

/** `record` with `key` added in alphabetical order when the keys already are, else at the end. */
function withKey(record: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const keys = Object.keys(record);
  const sorted = keys.every((name, index) => index === 0 || (keys[index - 1] as string) <= name);
  const entries = [...Object.entries(record), [key, value] as const];
  if (sorted) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/**
 * `package.json` with `@domain-auth/core` and the API reference's renderer in `dependencies` (each unless already listed in either list),
 * and `scripts.start` pointed at `server.mjs` when it is the stock `next start` and `keepStart` is not
 * set. Key order, indentation and the final newline are kept.
 *
 * @param version the range to depend on, e.g. `^0.1.0`.
 */
export function withDomainAuth(text: string, options: { version: string; keepStart: boolean }): PackageJsonEdit {
  const manifest = JSON.parse(text) as Manifest;
  const dependencies = (manifest.dependencies ?? {}) as Record<string, unknown>;
  const devDependencies = (manifest.devDependencies ?? {}) as Record<string, unknown>;
  const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
  const missing = (name: string) => !(name in dependencies) && !(name in devDependencies);
  const addedDependency = missing(CORE_PACKAGE);
  const addedApiReference = missing(API_REFERENCE_PACKAGE);
  const changedStart = !options.keepStart && scripts.start === STOCK_START;
  const flags = { addedDependency, addedApiReference, changedStart };
  if (!addedDependency && !addedApiReference && !changedStart) return { content: null, ...flags };

  const edited: Manifest = { ...manifest };
  if (changedStart) edited.scripts = { ...scripts, start: SERVER_START };
  let added = dependencies;
  if (addedDependency) added = withKey(added, CORE_PACKAGE, options.version);
  if (addedApiReference) added = withKey(added, API_REFERENCE_PACKAGE, API_REFERENCE_RANGE);
  if (added === dependencies) return { content: serialize(edited, text), ...flags };
  if (manifest.dependencies === undefined) {
    // A new `dependencies` goes where npm would put it: before devDependencies, else at the end.
    const entries = Object.entries(edited);
    const at = entries.findIndex(([key]) => key === "devDependencies");
    entries.splice(at < 0 ? entries.length : at, 0, ["dependencies", added]);
    return { content: serialize(Object.fromEntries(entries), text), ...flags };
  }
  edited.dependencies = added;
  return { content: serialize(edited, text), ...flags };
}

function serialize(manifest: Manifest, original: string): string {
  const newline = original.includes("\r\n") ? "\r\n" : "\n";
  const json = JSON.stringify(manifest, null, indentOf(original)).replaceAll("\n", newline);
  return /\r?\n$/.test(original) ? `${json}${newline}` : json;
}

/** The `package.json` of a new app: Next.js, React, the core and the API reference's renderer, with TypeScript to check it. */
export function newPackageJson(options: { name: string; coreVersion: string; versions: Readonly<Record<string, string>> }): string {
  const version = (name: string) => options.versions[name] ?? "latest";
  const manifest = {
    name: options.name,
    version: "0.1.0",
    private: true,
    scripts: { dev: "next dev", build: "next build", start: SERVER_START },
    dependencies: {
      [CORE_PACKAGE]: options.coreVersion,
      "@next/env": version("@next/env"),
      next: version("next"),
      react: version("react"),
      "react-dom": version("react-dom"),
      [API_REFERENCE_PACKAGE]: API_REFERENCE_RANGE,
    },
    devDependencies: {
      "@types/node": version("@types/node"),
      "@types/react": version("@types/react"),
      "@types/react-dom": version("@types/react-dom"),
      typescript: version("typescript"),
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
