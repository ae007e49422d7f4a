import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange } from "./file-changes.js";
import { CORE_PACKAGE, editNextConfig, MANUAL_CHANGE, newNextConfig, turnsOnCacheComponents } from "./next-config.js";
import { SERVER_START, TYPESCRIPT_PACKAGES, withDomainAuth } from "./package-json.js";
import type { Project } from "./project.js";
import { builtVersions } from "./templates-dir.js";
import { newTsconfig, tsconfigExtending } from "./tsconfig.js";

/** An edit of one of the user's files, shown as a diff in the summary. */
export interface EditedFile {
  readonly change: FileChange;
  /** The text before the edit (empty for a new file). */
  readonly before: string;
}

/** What an existing Next.js project needs in `next.config` and `package.json`, or why it cannot be edited. */
export type ProjectPlan =
  | {
      readonly kind: "planned";
      readonly edits: readonly EditedFile[];
      readonly startsServer: boolean;
      readonly addsDependency: boolean;
      /** `next.config` turns on `cacheComponents`: the auth pages' layout must opt out of the prerendered shell. */
      readonly cacheComponents: boolean;
    }
  | { readonly kind: "refused"; readonly file: string; readonly reason: string };

/** The lines that tell the user which change to make by hand in a config the wizard will not edit. */
export function manualChangeText(refusal: { file: string; reason: string }): string {
  return [
    `${refusal.file} cannot be edited safely: ${refusal.reason}. Nothing was written.`,
    `Add to the config object Next.js receives, then run the wizard again:`,
    `  serverExternalPackages: ["${CORE_PACKAGE}"],`,
    `  poweredByHeader: false,`,
    `(${MANUAL_CHANGE}; add "${CORE_PACKAGE}" to serverExternalPackages if the config has one.)`,
  ].join("\n");
}

async function planNextConfig(dir: string, file: string | undefined): Promise<EditedFile | { file: string; reason: string }> {
  if (file === undefined) {
    return {
      change: {
        path: "next.config.ts",
        content: newNextConfig(),
        action: "create",
        note: "with serverExternalPackages",
      },
      before: "",
    };
  }
  const before = await readFile(join(dir, file), "utf8");
  const edit = await editNextConfig(before);
  if (edit.kind === "refused") {
    // The user made the change by hand in a shape the wizard does not edit; a rerun accepts it.
    if (/(["'`])@domain-auth\/core\1/.test(before)) return { change: { path: file, content: before, action: "unchanged" }, before };
    return { file, reason: edit.reason };
  }
  if (edit.kind === "unchanged") return { change: { path: file, content: before, action: "unchanged" }, before };
  return {
    change: { path: file, content: edit.content, action: "update", note: "adds @domain-auth/core" },
    before,
  };
}

/**
 * The `tsconfig.json` a JavaScript project gets, the scaffolded files being TypeScript: one that extends
 * its `jsconfig.json` (keeping its settings and `@/*` alias), or create-next-app's when it has none.
 */
function planTsconfig(project: Extract<Project, { kind: "next" }>): EditedFile {
  const fromJsconfig = project.compilerConfig === "jsconfig.json";
  return {
    change: {
      path: "tsconfig.json",
      content: fromJsconfig ? tsconfigExtending(project.compilerConfig) : newTsconfig(project.sourceDir),
      action: "create",
      note: fromJsconfig ? "TypeScript; extends jsconfig.json" : "TypeScript, with the @/* alias",
    },
    before: "",
  };
}

/**
 * The edits an existing Next.js project gets: `next.config` (created when absent), `package.json`
 * (the core as a dependency, and `start` on the production server) and, in a JavaScript project,
 * TypeScript: a `tsconfig.json` and the packages Next.js compiles and type-checks it with, at the
 * versions the wizard was built against.
 */
export async function planProjectEdits(
  dir: string,
  project: Extract<Project, { kind: "next" }>,
  options: { coreVersion: string; keepStart: boolean },
): Promise<ProjectPlan> {
  const config = await planNextConfig(dir, project.nextConfig);
  if (!("change" in config)) return { kind: "refused", ...config };
  const addsTypeScript = project.compilerConfig !== "tsconfig.json";
  const versions = addsTypeScript ? await builtVersions() : undefined;
  const packageEdit = withDomainAuth(project.packageJson, {
    version: options.coreVersion,
    keepStart: options.keepStart,
    ...(versions && { devDependencies: Object.fromEntries(TYPESCRIPT_PACKAGES.map((name) => [name, versions[name] ?? "latest"])) }),
  });
  const added = [...packageEdit.addedDependencies, ...packageEdit.addedDevDependencies];
  const notes = [
    // The diff above the file list names them; the line stays short enough for a narrow terminal.
    ...(added.length > 0 ? [`adds ${added.length === 1 ? added[0] : "dependencies"}`] : []),
    ...(packageEdit.changedStart ? [`start: ${SERVER_START}`] : []),
    ...(packageEdit.addedScarfSettings && added.length === 0 && !packageEdit.changedStart ? ["install-time analytics off"] : []),
  ];
  const packageChange: FileChange =
    packageEdit.content === null
      ? { path: "package.json", content: project.packageJson, action: "unchanged" }
      : { path: "package.json", content: packageEdit.content, action: "update", note: notes.join("; ") };
  const manifest = JSON.parse(packageChange.content) as { scripts?: Record<string, string> };
  return {
    kind: "planned",
    edits: [config, { change: packageChange, before: project.packageJson }, ...(addsTypeScript ? [planTsconfig(project)] : [])],
    startsServer: manifest.scripts?.start === SERVER_START,
    addsDependency: packageEdit.addedDependencies.length > 0,
    cacheComponents: await turnsOnCacheComponents(config.before),
  };
}
