import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/** The package managers the wizard installs with. */
export type PackageManager = "npm" | "pnpm" | "yarn" | "bun";

/** The lock file that names each package manager, in the order they are looked for. */
const LOCKFILES: readonly (readonly [string, PackageManager])[] = [
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["package-lock.json", "npm"],
];

/** The config file names Next.js reads, in its own order of preference. */
export const NEXT_CONFIG_FILES = ["next.config.js", "next.config.mjs", "next.config.ts", "next.config.mts", "next.config.cjs"] as const;

/** What the wizard found in the folder it runs in. */
export type Project =
  /** No `package.json`: the wizard creates a whole Next.js app. */
  | { readonly kind: "new"; readonly packageManager: PackageManager }
  | {
      readonly kind: "next";
      /** `""`, or `"src/"` when the App Router lives in `src/app`. */
      readonly sourceDir: "" | "src/";
      readonly packageManager: PackageManager;
      /** The `next.config.*` file name, when there is one. */
      readonly nextConfig: string | undefined;
      /** The text of `package.json`. */
      readonly packageJson: string;
      /**
       * The file holding the project's compiler settings and its `@/*` alias: `tsconfig.json` in a
       * TypeScript project; in a JavaScript one its `jsconfig.json`, or `undefined` when it has none
       * (the wizard then adds TypeScript, which the scaffolded files are written in).
       */
      readonly compilerConfig: "tsconfig.json" | "jsconfig.json" | undefined;
    }
  /** Something the wizard cannot add domain-auth to; `message` says what is missing. */
  | { readonly kind: "unsupported"; readonly message: string };

type Loose = Record<string, unknown>;

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function packageManagerFromField(manifest: Loose): PackageManager | undefined {
  const field = typeof manifest.packageManager === "string" ? manifest.packageManager : "";
  const name = field.split("@")[0];
  return name === "npm" || name === "pnpm" || name === "yarn" || name === "bun" ? name : undefined;
}

/** The package manager that launched the wizard (`npx`, `pnpm dlx`, `yarn dlx`, `bunx`), from npm's user agent. */
export function packageManagerFromAgent(userAgent: string | undefined): PackageManager {
  const name = (userAgent ?? "").split("/")[0];
  return name === "pnpm" || name === "yarn" || name === "bun" ? name : "npm";
}

/** The package manager whose lock file is in `dir` or the nearest parent folder that has one. */
export function packageManagerFromLockfile(dir: string): PackageManager | undefined {
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    const found = LOCKFILES.find(([file]) => existsSync(join(folder, file)));
    if (found) return found[1];
    if (dirname(folder) === folder) return undefined;
  }
}

/** Removes `//` and `/* *\/` comments and trailing commas from JSON with comments (tsconfig.json). */
function stripJsonComments(text: string): string {
  return text
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, string: string | undefined) => string ?? "")
    .replace(/("(?:\\.|[^"\\])*")|,(\s*[}\]])/g, (_, string: string | undefined, closing: string | undefined) => string ?? closing ?? "");
}

/**
 * Why `file` (`tsconfig.json` or `jsconfig.json`) does not map `@/*` to the source folder, the way the
 * scaffolded files import each other; `undefined` when it does, or when it cannot tell (a config that
 * extends another).
 */
function aliasProblem(file: string, text: string, sourceDir: "" | "src/"): string | undefined {
  let config: Loose;
  try {
    config = JSON.parse(stripJsonComments(text)) as Loose;
  } catch {
    return undefined;
  }
  const options = (config.compilerOptions ?? {}) as Loose;
  const targets = ((options.paths ?? {}) as Record<string, unknown>)["@/*"];
  if (!Array.isArray(targets) && config.extends !== undefined) return undefined;
  const base = typeof options.baseUrl === "string" ? options.baseUrl : ".";
  const wanted = resolve("/", sourceDir);
  const matches =
    Array.isArray(targets) &&
    targets.some((target) => typeof target === "string" && resolve("/", base, target.replace(/\*$/, "")) === wanted);
  if (matches) return undefined;
  return `${file} must map "@/*" to the ${sourceDir === "" ? "project" : "src"} folder, as create-next-app does: in "compilerOptions", add "paths": { "@/*": ["./${sourceDir}*"] }.`;
}

/**
 * Finds out what `dir` holds: nothing yet (no `package.json`), a Next.js App Router project in
 * TypeScript or JavaScript, or something the wizard cannot work with.
 */
export async function detectProject(dir: string, options: { userAgent?: string | undefined } = {}): Promise<Project> {
  const fallback = packageManagerFromAgent(options.userAgent);
  let packageJson: string;
  try {
    packageJson = await readFile(join(dir, "package.json"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "new", packageManager: fallback };
    throw error;
  }
  let manifest: Loose;
  try {
    manifest = JSON.parse(packageJson) as Loose;
  } catch (error) {
    return { kind: "unsupported", message: `package.json is not valid JSON (${(error as Error).message}).` };
  }
  const declared = { ...(manifest.dependencies as Loose | undefined), ...(manifest.devDependencies as Loose | undefined) };
  if (!("next" in declared)) {
    return {
      kind: "unsupported",
      message:
        "package.json does not list next: domain-auth adds its pages to a Next.js App Router project. Run the wizard in a Next.js project, or in a folder without package.json to create one.",
    };
  }
  const sourceDir = isFolder(join(dir, "app")) ? "" : isFolder(join(dir, "src", "app")) ? "src/" : undefined;
  if (sourceDir === undefined) {
    return {
      kind: "unsupported",
      message: "No app/ or src/app/ folder: domain-auth needs the Next.js App Router (a root layout in app/layout.tsx).",
    };
  }
  const compilerConfig = (["tsconfig.json", "jsconfig.json"] as const).find((file) => existsSync(join(dir, file)));
  if (compilerConfig !== undefined) {
    const problem = aliasProblem(compilerConfig, await readFile(join(dir, compilerConfig), "utf8"), sourceDir);
    if (problem) return { kind: "unsupported", message: problem };
  }
  return {
    kind: "next",
    sourceDir,
    packageManager: packageManagerFromField(manifest) ?? packageManagerFromLockfile(dir) ?? fallback,
    nextConfig: NEXT_CONFIG_FILES.find((file) => existsSync(join(dir, file))),
    packageJson,
    compilerConfig,
  };
}

/** Files that stay at the project root in a `src/` project (Next.js looks for the proxy in `src/`). */
const ROOT_FILES = /^(?:[^/]+\.(?:mjs|cjs|js|json|yaml|yml)|\.[^/]+)$/;

/** Where a scaffolded file goes: under `src/` in a `src/app` project, except the root files. */
export function projectPath(path: string, sourceDir: "" | "src/"): string {
  return sourceDir === "" || ROOT_FILES.test(path) ? path : `${sourceDir}${path}`;
}

/**
 * The project's proxy or middleware file (`proxy.ts`, `middleware.js`, …), if it has one: Next.js runs
 * one per app, so the scaffolded `proxy.ts` is written only when there is none (or it is the scaffold's).
 */
export function findMiddleware(dir: string, sourceDir: "" | "src/"): string | undefined {
  const candidates = ["proxy.ts", "proxy.js", "proxy.mjs", "middleware.ts", "middleware.js", "middleware.mjs"].map(
    (file) => `${sourceDir}${file}`,
  );
  return candidates.find((file) => existsSync(join(dir, file)));
}

/**
 * The project's own 403 page in another language than the scaffold's (`app/forbidden.js`, `.jsx`, `.ts`),
 * if it has one: the scaffolded `app/forbidden.tsx` would sit beside it as a second one, so it is not
 * written. (An `app/forbidden.tsx` of its own is a file that differs from the template: kept, as any.)
 */
export function findOwnForbiddenPage(dir: string, sourceDir: "" | "src/"): string | undefined {
  const candidates = ["forbidden.js", "forbidden.jsx", "forbidden.ts"].map((file) => `${sourceDir}app/${file}`);
  return candidates.find((file) => existsSync(join(dir, file)));
}
