import { CORE_PACKAGE } from "./next-config.js";

/** The `start` script create-next-app writes, which the wizard points at the production server. */
export const STOCK_START = "next start";
/** The scaffolded production server, which records real client addresses. */
export const SERVER_START = "node server.mjs";

/**
 * What the scaffold needs besides Next.js and the core, at the ranges apps/web is built and tested
 * with (checked by a test): the renderer of the API reference (`/docs`, a prebuilt bundle with no
 * dependency), the browser side of passkeys (`/login`, `/profile`), and the SQLite driver the
 * default `DATABASE_URL` opens (an optional peer of the core: a PostgreSQL-only deployment
 * installs `pg` instead).
 */
export const SCAFFOLD_PACKAGES: Readonly<Record<string, string>> = {
  "swagger-ui-dist": "^5.35.0",
  "@simplewebauthn/browser": "^14.0.0",
  "better-sqlite3": "^12.6.2",
};

/**
 * What turns off the install-time analytics of `@scarf/scarf`, which swagger-ui-dist depends on: it
 * reads the project's own `package.json` (the domain-auth repository sets the same).
 */
export const SCARF_SETTINGS: Readonly<{ enabled: false }> = { enabled: false };

/** What `withDomainAuth` changed, for the summary. */
export interface PackageJsonEdit {
  /** The text to write, or `null` when nothing changes. */
  readonly content: string | null;
  /** The packages added to `dependencies`, in order. */
  readonly addedDependencies: readonly string[];
  /** The packages added to `devDependencies`, in order. */
  readonly addedDevDependencies: readonly string[];
  readonly changedStart: boolean;
  /** `scarfSettings` added (analytics off). */
  readonly addedScarfSettings: boolean;
}

/** The package the scaffolded `server.mjs` loads `.env` files with; Next.js's own, at Next.js's version. */
export const NEXT_ENV_PACKAGE = "@next/env";

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
 * `package.json` with what the scaffold imports in `dependencies` (unless already listed in either
 * list): `@domain-auth/core` at `version`, `@next/env` at the project's own `next` range (the
 * production server loads `.env` files with it; a strict package manager such as pnpm does not let a
 * project import what it does not list), and the {@link SCAFFOLD_PACKAGES}. `scripts.start` is
 * pointed at `server.mjs` when it is the stock `next start` and `keepStart` is not set.
 * `scarfSettings` turns off the install-time analytics swagger-ui-dist pulls in, unless the project set it.
 * `devDependencies` (TypeScript, for a JavaScript project) join that list unless listed in either. Key
 * order, indentation and the final newline are kept.
 *
 * @param version the range to depend on, e.g. `^0.1.0`.
 */
export function withDomainAuth(
  text: string,
  options: { version: string; keepStart: boolean; devDependencies?: Readonly<Record<string, string>> },
): PackageJsonEdit {
  const manifest = JSON.parse(text) as Manifest;
  const dependencies = (manifest.dependencies ?? {}) as Record<string, unknown>;
  const devDependencies = (manifest.devDependencies ?? {}) as Record<string, unknown>;
  const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
  const listed = (name: string) => name in dependencies || name in devDependencies;
  const nextRange = dependencies.next ?? devDependencies.next;
  const wanted: [string, string][] = [[CORE_PACKAGE, options.version]];
  if (typeof nextRange === "string") wanted.push([NEXT_ENV_PACKAGE, nextRange]);
  wanted.push(...Object.entries(SCAFFOLD_PACKAGES));
  const added = wanted.filter(([name]) => !listed(name));
  const addedDev = Object.entries(options.devDependencies ?? {}).filter(([name]) => !listed(name));
  const changedStart = !options.keepStart && scripts.start === STOCK_START;
  const addedDependencies = added.map(([name]) => name);
  const addedDevDependencies = addedDev.map(([name]) => name);
  const addedScarfSettings = manifest.scarfSettings === undefined;
  if (added.length === 0 && addedDev.length === 0 && !changedStart && !addedScarfSettings) {
    return { content: null, addedDependencies, addedDevDependencies, changedStart, addedScarfSettings };
  }

  let edited: Manifest = { ...manifest };
  if (addedScarfSettings) edited.scarfSettings = SCARF_SETTINGS;
  if (changedStart) edited.scripts = { ...scripts, start: SERVER_START };
  if (added.length > 0) {
    if (manifest.dependencies === undefined) {
      // A new `dependencies` goes where npm would put it: before devDependencies, else at the end.
      const entries = Object.entries(edited);
      const at = entries.findIndex(([key]) => key === "devDependencies");
      entries.splice(at < 0 ? entries.length : at, 0, ["dependencies", Object.fromEntries(added)]);
      edited = Object.fromEntries(entries);
    } else {
      edited.dependencies = added.reduce((record, [name, range]) => withKey(record, name, range), dependencies);
    }
  }
  if (addedDev.length > 0) {
    edited.devDependencies = addedDev.reduce((record, [name, range]) => withKey(record, name, range), devDependencies);
  }
  return { content: serialize(edited, text), addedDependencies, addedDevDependencies, changedStart, addedScarfSettings };
}

/** The packages Next.js needs to compile and type-check TypeScript, which a JavaScript project lacks. */
export const TYPESCRIPT_PACKAGES = ["@types/node", "@types/react", "@types/react-dom", "typescript"] as const;

function serialize(manifest: Manifest, original: string): string {
  const newline = original.includes("\r\n") ? "\r\n" : "\n";
  const json = JSON.stringify(manifest, null, indentOf(original)).replaceAll("\n", newline);
  return /\r?\n$/.test(original) ? `${json}${newline}` : json;
}

/** The `package.json` of a new app: Next.js, React, the core and the {@link SCAFFOLD_PACKAGES}, with TypeScript to check it. */
export function newPackageJson(options: { name: string; coreVersion: string; versions: Readonly<Record<string, string>> }): string {
  const version = (name: string) => options.versions[name] ?? "latest";
  const manifest = {
    name: options.name,
    version: "0.1.0",
    private: true,
    scripts: { dev: "next dev", build: "next build", start: SERVER_START },
    dependencies: {
      [CORE_PACKAGE]: options.coreVersion,
      [NEXT_ENV_PACKAGE]: version(NEXT_ENV_PACKAGE),
      next: version("next"),
      react: version("react"),
      "react-dom": version("react-dom"),
      ...SCAFFOLD_PACKAGES,
    },
    devDependencies: Object.fromEntries(TYPESCRIPT_PACKAGES.map((name) => [name, version(name)])),
    scarfSettings: SCARF_SETTINGS,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
