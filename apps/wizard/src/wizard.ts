import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import type { Readable, Writable } from "node:stream";
import { cancel, intro, log, note, outro } from "@clack/prompts";
import type { Diagnostic, DomainModel } from "@domain-auth/core/config";
import { parseWizardArgs, USAGE } from "./args.js";
import { type AuthChoices, type ChoiceFlags, unattendedChoices } from "./auth-choices.js";
import { applyAuthChoices } from "./auth-edit.js";
import { type DomainState, readDomainState, setupRoleOf } from "./domain-state.js";
import { applyFileChanges, type FileChange, generateSecret, planProjectFiles, planTemplateFiles, writesFile } from "./file-changes.js";
import { installCommand, runInstall } from "./install.js";
import { checkOrganizationsFlag } from "./organizations.js";
import { detectProject, findMiddleware, findOwnForbiddenPage, type PackageManager, type Project, projectPath } from "./project.js";
import { type EditedFile, manualChangeText, type ProjectPlan, planProjectEdits } from "./project-changes.js";
import { askAuthChoices, askOverwrite, askStarter, askToWrite, PromptCancelled, type PromptStreams } from "./prompts.js";
import { type ProtectAPageOptions, protectAPage } from "./protect-a-page.js";
import { ownProxyAdvice } from "./proxy-advice.js";
import { serviceNameFrom, starterDomainText } from "./starter.js";
import {
  describeOrganizations,
  describeProviders,
  describeSecondFactors,
  formatDomainChange,
  formatFileChanges,
  type Paint,
  paintFor,
} from "./summary.js";
import { errorsBeyondAnswers, validateDefaultRole, validateEntityChoice, validateMfaRequired } from "./validators.js";
import { checkWritable } from "./writable.js";
import { readTextIfExists } from "./write-files.js";

/** Where the wizard runs: its folder, arguments, streams and environment. */
export interface WizardContext {
  readonly cwd: string;
  /** The arguments after the command name. */
  readonly argv: readonly string[];
  readonly input: Readable & { isTTY?: boolean };
  readonly output: Writable & { isTTY?: boolean; columns?: number };
  /** Where errors go. @default output */
  readonly errorOutput?: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes (docs/wizard.md). */
export const EXIT = { done: 0, invalid: 1, usage: 2, cancelled: 130 } as const;

function isCi(env: WizardContext["env"]): boolean {
  const value = env.CI;
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

async function packageVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}

/** A flag that names something the file must have, checked once the file is read. */
function checkFlagsAgainstFile(state: DomainState, flags: ChoiceFlags): string | undefined {
  if (flags.entity !== undefined && (flags.type ?? "jwt") === "jwt") {
    const problem = validateEntityChoice(
      flags.entity,
      state.entities.map((entity) => entity.name),
    );
    if (problem) return `--entity: ${problem}`;
  }
  if (flags.defaultRole !== undefined) {
    const problem = validateDefaultRole(flags.defaultRole, flags.roles ?? state.roles);
    if (problem) return `--default-role: ${problem}`;
  }
  if (flags.mfa !== undefined && flags.mfa !== "off") {
    const problem = validateMfaRequired(flags.mfa, flags.roles ?? state.roles);
    if (problem) return `--mfa-required: ${problem}`;
  }
  return undefined;
}

/** What the run did to the project, for the next steps. */
interface ProjectOutcome {
  readonly packageManager: PackageManager;
  readonly installed: boolean;
  /** Whether `npm start` runs the scaffolded production server. */
  readonly startsServer: boolean;
  /** Whether the project is in another folder than the one the wizard ran in (one it created, say). */
  readonly elsewhere: boolean;
  /** How to protect a page there: under `cacheComponents`, in `src/`, beside the project's own proxy. */
  readonly pages: ProtectAPageOptions;
}

/** The folder as the user typed it, for a sentence: "this folder" when they named none. */
export function folderName(dirArg: string): string {
  return dirArg === "." ? "this folder" : dirArg;
}

function nextSteps(dirArg: string, domain: { choices: AuthChoices; model: DomainModel }, outcome: ProjectOutcome): string {
  const { choices, model } = domain;
  const manager = outcome.packageManager;
  const run = (script: string) => (manager === "npm" || manager === "bun" ? `${manager} run ${script}` : `${manager} ${script}`);
  const steps: [string, string][] = outcome.elsewhere ? [[`cd ${dirArg}`, ""]] : [];
  if (!outcome.installed) steps.push([installCommand(manager), "installs the dependencies"]);
  steps.push([run("dev"), "start the app; /api/* is domain-auth"]);
  steps.push(
    outcome.startsServer
      ? [`${run("build")} && ${manager === "npm" ? "npm start" : run("start")}`, "production, on server.mjs"]
      : [`${run("build")} && node server.mjs`, "production: real client addresses"],
  );
  const setupRole = setupRoleOf(choices.roles);
  if (choices.type === "jwt" && choices.endpoints.setup) steps.push(["open /setup", `create the first ${setupRole}`]);
  steps.push(["npx create-domain-auth validate", "check domain.yaml"]);
  const width = Math.max(...steps.map(([command]) => command.length));
  const lines = steps.map(([command, why]) => (why ? `${command.padEnd(width)}  ${why}` : command));
  if (choices.type === "jwt")
    lines.push(
      "",
      describeSecondFactors(choices.mfa),
      "",
      ...(model.auth && model.auth.providers.length > 0 ? [...describeProviders(model.auth.providers, model.auth.entity), ""] : []),
      ...(model.auth?.organizations
        ? [
            ...describeOrganizations(
              model.auth.organizations,
              model.entities.filter((entity) => entity.tenant).map((entity) => entity.name),
            ),
            "",
          ]
        : []),
      ...protectAPage(outcome.pages),
      "",
      "In production, set AUTH_SECRET (32 bytes or more) and DATABASE_URL.",
    );
  return lines.join("\n");
}

/**
 * Runs `create-domain-auth [dir]`: asks the questions (or takes the flags), shows the change, and
 * writes `domain.yaml` and the scaffolded files once confirmed.
 *
 * @returns the exit code: 0 done, 1 validation error, 2 bad usage, 130 cancelled.
 */
export async function runWizard(context: WizardContext): Promise<number> {
  const { output } = context;
  const errorOutput = context.errorOutput ?? output;
  const args = parseWizardArgs(context.argv);
  if (args.kind === "help") {
    output.write(USAGE);
    return EXIT.done;
  }
  if (args.kind === "version") {
    output.write(`${await packageVersion()}\n`);
    return EXIT.done;
  }
  if (args.kind === "error") {
    errorOutput.write(`create-domain-auth: ${args.message}\nRun create-domain-auth --help for usage.\n`);
    return EXIT.usage;
  }

  const interactive = !args.yes && context.input.isTTY === true && output.isTTY === true && !isCi(context.env);
  if (!args.yes && !interactive) {
    errorOutput.write(
      "create-domain-auth: no terminal to ask questions in; pass --yes to run unattended (with flags such as --type jwt --roles Admin,Reader).\n",
    );
    return EXIT.usage;
  }
  const io: PromptStreams = { input: context.input, output };
  try {
    return await runSteps(context, { ...args, interactive, io, errorOutput });
  } catch (error) {
    if (!(error instanceof PromptCancelled)) throw error;
    cancel("Cancelled; nothing was written.", { output });
    return EXIT.cancelled;
  }
}

interface RunOptions {
  readonly dir: string;
  readonly flags: ChoiceFlags;
  readonly dryRun: boolean;
  readonly noInstall: boolean;
  readonly keepStart: boolean;
  /** `--core FILE`: a tarball of the core to depend on, as typed. */
  readonly core?: string;
  readonly interactive: boolean;
  readonly io: PromptStreams;
  readonly errorOutput: Writable;
}

/** What every step of one run reads. */
interface Run extends RunOptions {
  /** The project folder, absolute (`dir` is as the user gave it). */
  readonly root: string;
  /** The folder the wizard runs in, absolute. */
  readonly cwd: string;
  /** `domain.yaml` as messages name it: relative to the folder the wizard runs in. */
  readonly domainFile: string;
  readonly output: Writable;
  readonly paint: Paint;
  /** The environment the package manager runs in. */
  readonly env: WizardContext["env"];
}

/** How a step ends the run early: with this exit code. */
interface Stop {
  readonly exit: number;
}

/** The project the run changes, once it is known the wizard can change it. */
interface Target {
  readonly project: Exclude<Project, { kind: "unsupported" }>;
  /** The edits of an existing Next.js project's own files; none for a new app. */
  readonly plan: Extract<ProjectPlan, { kind: "planned" }> | undefined;
  readonly sourceDir: "" | "src/";
  /** The range of `@domain-auth/core` a project depends on: this wizard's version. */
  readonly coreVersion: string;
}

/** The domain.yaml the run writes, with the choices that made it. */
interface DomainOutcome {
  readonly isNewFile: boolean;
  readonly before: string;
  readonly after: string;
  readonly choices: AuthChoices;
  readonly model: DomainModel;
}

/** The run once its arguments are read: each step in turn, until one stops it or the files are written. */
async function runSteps(context: WizardContext, options: RunOptions): Promise<number> {
  const { output } = context;
  const run: Run = {
    ...options,
    root: resolve(context.cwd, options.dir),
    cwd: resolve(context.cwd),
    domainFile: options.dir === "." ? "domain.yaml" : join(options.dir, "domain.yaml"),
    output,
    paint: paintFor(output.isTTY === true && context.env.NO_COLOR === undefined),
    env: context.env,
  };

  intro(`create-domain-auth${options.dryRun ? " (dry run)" : ""}`, { output });
  if (!options.dryRun) {
    const unwritable = await checkWritable(run.root, { shown: options.dir, cwd: context.cwd });
    if (unwritable) {
      log.error(unwritable, { output });
      return EXIT.invalid;
    }
  }
  const target = await findTarget(run, context.env.npm_config_user_agent);
  if ("exit" in target) return target.exit;
  const existing = await readTextIfExists(join(run.root, "domain.yaml"));
  if (existing === null) {
    if (run.interactive && !(await askStarter(options.dir === "." ? "This folder" : options.dir, run.io))) {
      outro("Nothing written. Add a domain.yaml and run the wizard again.", { output });
      return EXIT.done;
    }
    if (!run.interactive) log.info(`No ${run.domainFile}: starting from a starter file with a User entity.`, { output });
  }
  const domain = await decideDomain(run, existing);
  if ("exit" in domain) return domain.exit;

  const files = await planFiles(run, target, domain);
  const ownProxy = await settleFiles(run, target, files);
  const domainChange: FileChange = {
    path: "domain.yaml",
    content: domain.after,
    action: domain.isNewFile ? "create" : domain.after === domain.before ? "unchanged" : "update",
  };
  showChanges(run, { domain, edits: target.plan?.edits ?? [], files: [domainChange, ...files] });
  if (ownProxy) log.warn(ownProxyAdvice(ownProxy, target.sourceDir), { output });

  const changes = [domainChange, ...files].filter(writesFile);
  if (changes.length === 0) {
    outro("Everything is up to date; nothing to write.", { output });
    return EXIT.done;
  }
  if (options.dryRun) {
    outro(`Dry run: ${changes.length} file${changes.length === 1 ? "" : "s"} would be written; nothing was.`, { output });
    return EXIT.done;
  }
  if (run.interactive && !(await askToWrite(run.io))) {
    outro("Nothing written.", { output });
    return EXIT.done;
  }
  // A proxy.ts that gives way to the project's own was explained with the summary.
  const skipped = files.filter((file) => file.action === "skip" && !(ownProxy && file.path === projectPath("proxy.ts", target.sourceDir)));
  return writeChanges(run, target, { domain, changes, skipped, ownProxy });
}

/**
 * The dependency on the core tarball of `--core`: `file:` and its path from the project (which package
 * managers resolve from the project's folder), or `null` when there is no such file.
 */
function coreTarballSpec(run: Run): string | null {
  const tarball = resolve(run.cwd, run.core ?? "");
  if (!existsSync(tarball)) return null;
  const path = relative(run.root, tarball).split(sep).join("/");
  return `file:${path.startsWith(".") ? path : `./${path}`}`;
}

/** Detects the project and plans the edits of its own files; stops where the wizard cannot change it. */
async function findTarget(run: Run, userAgent: string | undefined): Promise<Target | Stop> {
  const project = await detectProject(run.root, { userAgent });
  if (project.kind === "unsupported") {
    log.error(project.message, { output: run.output });
    return { exit: EXIT.invalid };
  }
  const coreVersion = run.core === undefined ? `^${await packageVersion()}` : coreTarballSpec(run);
  if (coreVersion === null) {
    run.errorOutput.write(`create-domain-auth: --core: no file at ${run.core}\n`);
    return { exit: EXIT.usage };
  }
  const plan = project.kind === "next" ? await planProjectEdits(run.root, project, { coreVersion, keepStart: run.keepStart }) : undefined;
  if (plan?.kind === "refused") {
    run.errorOutput.write(`create-domain-auth: ${manualChangeText(plan)}\n`);
    return { exit: EXIT.invalid };
  }
  return { project, plan, sourceDir: project.kind === "next" ? project.sourceDir : "", coreVersion };
}

/**
 * Reads domain.yaml (the starter file when there is none), asks the questions or takes the flags,
 * and applies the choices; stops when the file or the result is not valid.
 */
async function decideDomain(run: Run, existing: string | null): Promise<DomainOutcome | Stop> {
  const { output, flags } = run;
  const before = existing ?? starterDomainText(serviceNameFrom(basename(run.root)));
  const state = readDomainState(before);
  // Loads while the first question is on screen, so that question does not wait for it (a new file:
  // an existing one is checked before any question).
  const configLoading = import("@domain-auth/core/config");
  const report = async (text: string, only?: (diagnostics: readonly Diagnostic[]) => readonly Diagnostic[]) => {
    const config = await configLoading;
    const { diagnostics } = config.validateDomainText(text);
    for (const diagnostic of only ? only(diagnostics) : diagnostics) {
      run.errorOutput.write(`${config.formatDiagnostic(run.domainFile, diagnostic)}\n`);
    }
  };
  if (!state) {
    log.error(`${run.domainFile} is not valid YAML; fix it and run the wizard again.`, { output });
    await report(before);
    return { exit: EXIT.invalid };
  }
  // Errors the answers cannot fix are said before the first question, not after the last.
  if (existing !== null && errorsBeyondAnswers((await configLoading).validateDomainText(before).diagnostics).length > 0) {
    log.error(`${run.domainFile} has errors; fix them and run the wizard again.`, { output });
    await report(before, errorsBeyondAnswers);
    return { exit: EXIT.invalid };
  }
  // The organization roles are checked by the core's rules: its validation is loaded for them.
  const usage =
    checkFlagsAgainstFile(state, flags) ??
    (flags.organizations === undefined
      ? undefined
      : checkOrganizationsFlag(state, flags, { validate: (await configLoading).validateDomainText, interactive: run.interactive }));
  if (usage) {
    run.errorOutput.write(`create-domain-auth: ${usage}\n`);
    return { exit: EXIT.usage };
  }

  const isNewFile = existing === null;
  const choices = run.interactive
    ? await askAuthChoices(
        state,
        flags,
        { isNewFile, rules: { validate: configLoading.then(({ validateDomainText }) => validateDomainText) } },
        run.io,
      )
    : unattendedChoices(state, flags, { isNewFile });
  const after = applyAuthChoices(before, choices);
  const { model } = (await configLoading).validateDomainText(after);
  if (!model) {
    log.error(`The result would not be a valid ${run.domainFile}; nothing was written.`, { output });
    await report(after);
    return { exit: EXIT.invalid };
  }
  return { isNewFile, before, after, choices, model };
}

/** Every file the run would write besides domain.yaml: the project's edits, a new app's files, the templates, the env and ignore files. */
async function planFiles(run: Run, target: Target, domain: DomainOutcome): Promise<FileChange[]> {
  const { project, plan, sourceDir, coreVersion } = target;
  const { loadManifest, renderTemplates } = await import("./templates.js");
  const { NEW_APP_IGNORES, newAppFiles } = await import("./new-app.js");
  const cacheComponents = plan?.cacheComponents === true;
  const rendered = (await renderTemplates(await loadManifest(), domain.model, { cacheComponents })).map((file) => ({
    ...file,
    to: projectPath(file.to, sourceDir),
  }));
  const appFiles =
    project.kind === "new"
      ? await newAppFiles({
          name: serviceNameFrom(basename(run.root)),
          coreVersion,
          hasAuth: domain.choices.type === "jwt",
          templates: rendered,
        })
      : [];
  return [
    ...(plan?.edits ?? []).map((edit) => edit.change),
    ...(await planTemplateFiles(run.root, [...appFiles, ...rendered])),
    ...(await planProjectFiles(run.root, {
      secret: generateSecret(),
      providers: domain.model.auth?.providers.map((provider) => provider.id) ?? [],
      ...(project.kind === "new" && { ignoreBase: NEW_APP_IGNORES }),
    })),
  ];
}

/**
 * Decides each conflict in `files`, in place: overwritten when the user says so, else skipped. The
 * project's own proxy or middleware is never replaced (nor asked about); the user adds two lines to it.
 * Nor is a 403 page of its own in JavaScript (`app/forbidden.js`) joined by the scaffold's `app/forbidden.tsx`.
 *
 * @returns the project's own proxy or middleware file, when the scaffolded proxy.ts gives way to it.
 */
async function settleFiles(run: Run, target: Target, files: FileChange[]): Promise<string | undefined> {
  const middleware = findMiddleware(run.root, target.sourceDir);
  const forbiddenPage = findOwnForbiddenPage(run.root, target.sourceDir);
  let ownProxy: string | undefined;
  for (const [index, file] of files.entries()) {
    if (middleware && file.path === projectPath("proxy.ts", target.sourceDir) && (file.action === "create" || file.action === "conflict")) {
      ownProxy = middleware;
      files[index] = { ...file, action: "skip", note: `${middleware} is yours; see below for the two lines to add` };
      continue;
    }
    if (forbiddenPage && file.path === projectPath("app/forbidden.tsx", target.sourceDir) && file.action === "create") {
      files[index] = { ...file, action: "skip", note: `${forbiddenPage} is yours` };
      continue;
    }
    if (file.action !== "conflict") continue;
    const overwrite = run.interactive && (await askOverwrite(file.path, run.io));
    files[index] = {
      ...file,
      action: overwrite ? "overwrite" : "skip",
      note: overwrite ? "differs from the template" : "differs from the template; kept as it is",
    };
  }
  return ownProxy;
}

/** Shows what the run changes: the diff of domain.yaml and of each edited project file, then every file's action. */
function showChanges(run: Run, changed: { domain: DomainOutcome; edits: readonly EditedFile[]; files: readonly FileChange[] }): void {
  const { domain } = changed;
  const { paint } = run;
  const format = (line: string) => line;
  const diff = formatDomainChange(domain.isNewFile ? "" : domain.before, domain.after, paint);
  if (diff.length > 0) note(diff.join("\n"), domain.isNewFile ? `${run.domainFile} (new)` : run.domainFile, { output: run.output, format });
  for (const edit of changed.edits.filter((edited) => edited.change.action === "update")) {
    note(formatDomainChange(edit.before, edit.change.content, paint).join("\n"), edit.change.path, { output: run.output, format });
  }
  note(formatFileChanges(changed.files, paint).join("\n"), "Files", { output: run.output, format });
}

/** What to do when the registry has no `@domain-auth/core` of this version (a wizard run from a clone). */
export const CORE_NOT_PUBLISHED = [
  "The registry has no @domain-auth/core of this version yet. To try the wizard from a clone of domain-auth, run there:",
  "  npm run try-wizard -- <your project folder>",
  "It packs the core and runs this wizard with --core <its tarball>; or pass --core yourself (npm pack -w @domain-auth/core).",
].join("\n");

/** Whether an install's output is the registry's 404 for the core. */
export function coreNotPublished(output: string): boolean {
  return /\b(?:E404|404)\b/.test(output) && /@domain-auth(?:\/|%2f)core/i.test(output);
}

/** Writes the changes, says which files it skipped, installs the dependencies, and shows the next steps. */
async function writeChanges(
  run: Run,
  target: Target,
  written: { domain: DomainOutcome; changes: readonly FileChange[]; skipped: readonly FileChange[]; ownProxy: string | undefined },
): Promise<number> {
  const { output } = run;
  const { project, plan } = target;
  await applyFileChanges(run.root, written.changes);
  for (const skipped of written.skipped) {
    const why = skipped.note?.startsWith("differs") ? "it differs from the template." : `${skipped.note}.`;
    log.warn(`Skipped ${skipped.path}: ${why}`, { output });
  }
  const needsInstall = written.changes.some((change) => change.path === "package.json");
  const install = installCommand(project.packageManager);
  let installFailed = false;
  if (needsInstall && !run.noInstall) {
    log.step(`Installing dependencies: ${install}`, { output });
    const failure = await runInstall(run.root, project.packageManager, { ...run.env });
    if (failure !== null) {
      installFailed = true;
      run.errorOutput.write(`${failure}\n`);
      log.error(`${install} failed; the files are written. Run ${install} again in ${folderName(run.dir)} once the error above is fixed.`, {
        output,
      });
      if (coreNotPublished(failure)) log.info(CORE_NOT_PUBLISHED, { output });
    }
  }
  const outcome: ProjectOutcome = {
    packageManager: project.packageManager,
    installed: !needsInstall || (!run.noInstall && !installFailed),
    startsServer: project.kind === "new" || plan === undefined || plan.startsServer,
    elsewhere: run.root !== run.cwd,
    pages: { cacheComponents: plan?.cacheComponents === true, sourceDir: target.sourceDir, ownProxy: written.ownProxy },
  };
  // Written files stay written whatever failed after them, so the way on is always shown.
  note(nextSteps(run.dir, written.domain, outcome), "Next steps", { output, format: (line) => line });
  const [first, ...others] = written.changes.map((change) => change.path);
  const wrote = others.length > 0 ? `wrote ${first} and ${others.length} more file${others.length === 1 ? "" : "s"}` : `wrote ${first}`;
  outro(installFailed ? `Not done: ${wrote}, but ${install} failed.` : `Done: ${wrote}.`, { output });
  return installFailed ? EXIT.invalid : EXIT.done;
}
