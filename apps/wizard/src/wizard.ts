import { readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { cancel, intro, log, note, outro } from "@clack/prompts";
import { parseWizardArgs, USAGE } from "./args.js";
import { type AuthChoices, type ChoiceFlags, unattendedChoices } from "./auth-choices.js";
import { applyAuthChoices } from "./auth-edit.js";
import { type DomainState, readDomainState, setupRoleOf } from "./domain-state.js";
import { type FileChange, writesFile } from "./file-changes.js";
import { installCommand, runInstall } from "./install.js";
import { detectProject, findMiddleware, type PackageManager, projectPath } from "./project.js";
import { manualChangeText, planProjectEdits } from "./project-changes.js";
import { askAuthChoices, askOverwrite, askStarter, askToWrite, PromptCancelled, type PromptStreams } from "./prompts.js";
import { ownProxyAdvice } from "./proxy-advice.js";
import { serviceNameFrom, starterDomainText } from "./starter.js";
import { formatDomainChange, formatFileChanges, paintFor } from "./summary.js";
import { validateDefaultRole, validateEntityChoice } from "./validators.js";
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

/** Exit codes (CONTRACT 7). */
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
  return undefined;
}

/** What the run did to the project, for the next steps. */
interface ProjectOutcome {
  readonly packageManager: PackageManager;
  readonly installed: boolean;
  /** Whether `npm start` runs the scaffolded production server. */
  readonly startsServer: boolean;
}

/** How a project's own pages and route handlers ask who is signed in (CONTRACT §14), for the next steps. */
function protectYourOwnCode(setupRole: string): string[] {
  const lines: [string, string][] = [
    ["const user = await requireUser();", "signed out: /login?next=<this page>"],
    [`const admin = await requireUser({ roles: [${JSON.stringify(setupRole)}] });`, "another role: the 403 page"],
    ["const maybe = await currentUser();", "null when signed out"],
  ];
  const width = Math.max(...lines.map(([code]) => code.length));
  return [
    "Your own pages, route handlers and server actions:",
    `  import { currentUser, requireUser } from "@domain-auth/core/next";`,
    ...lines.map(([code, why]) => `  ${code.padEnd(width)}  // ${why}`),
  ];
}

function nextSteps(dirArg: string, choices: AuthChoices, outcome: ProjectOutcome): string {
  const manager = outcome.packageManager;
  const run = (script: string) => (manager === "npm" || manager === "bun" ? `${manager} run ${script}` : `${manager} ${script}`);
  const steps: [string, string][] = dirArg === "." ? [] : [[`cd ${dirArg}`, ""]];
  if (!outcome.installed) steps.push([installCommand(manager), "installs the dependencies"]);
  steps.push([run("dev"), "start the app; /api/* is domain-auth"]);
  steps.push(
    outcome.startsServer
      ? [`${run("build")} && ${manager === "npm" ? "npm start" : run("start")}`, "production, on server.mjs"]
      : [`${run("build")} && node server.mjs`, "production: real client addresses"],
  );
  if (choices.type === "jwt" && choices.endpoints.setup) steps.push(["open /setup", `create the first ${setupRoleOf(choices.roles)}`]);
  steps.push(["npx create-domain-auth validate", "check domain.yaml"]);
  const width = Math.max(...steps.map(([command]) => command.length));
  const lines = steps.map(([command, why]) => (why ? `${command.padEnd(width)}  ${why}` : command));
  if (choices.type === "jwt")
    lines.push(
      "",
      ...protectYourOwnCode(setupRoleOf(choices.roles)),
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
  readonly interactive: boolean;
  readonly io: PromptStreams;
  readonly errorOutput: Writable;
}

async function runSteps(context: WizardContext, options: RunOptions): Promise<number> {
  const { output } = context;
  const { flags, io, interactive } = options;
  const dir = resolve(context.cwd, options.dir);
  const domainFile = options.dir === "." ? "domain.yaml" : join(options.dir, "domain.yaml");
  const paint = paintFor(output.isTTY === true && context.env.NO_COLOR === undefined);

  intro(`create-domain-auth${options.dryRun ? " (dry run)" : ""}`, { output });
  const project = await detectProject(dir, { userAgent: context.env.npm_config_user_agent });
  if (project.kind === "unsupported") {
    log.error(project.message, { output });
    return EXIT.invalid;
  }
  const version = await packageVersion();
  const coreVersion = `^${version}`;
  const plan = project.kind === "next" ? await planProjectEdits(dir, project, { coreVersion, keepStart: options.keepStart }) : undefined;
  if (plan?.kind === "refused") {
    options.errorOutput.write(`create-domain-auth: ${manualChangeText(plan)}\n`);
    return EXIT.invalid;
  }
  const sourceDir = project.kind === "next" ? project.sourceDir : "";

  const existing = await readTextIfExists(join(dir, "domain.yaml"));
  if (existing === null) {
    if (interactive && !(await askStarter(options.dir === "." ? "This folder" : options.dir, io))) {
      outro("Nothing written. Add a domain.yaml and run the wizard again.", { output });
      return EXIT.done;
    }
    if (!interactive) log.info(`No ${domainFile}: starting from a starter file with a User entity.`, { output });
  }
  const before = existing ?? starterDomainText(serviceNameFrom(basename(dir)));
  const state = readDomainState(before);
  // Loads while the first question is on screen, so that question does not wait for it.
  const configLoading = import("@domain-auth/core/config");
  const report = async (text: string) => {
    const config = await configLoading;
    for (const diagnostic of config.validateDomainText(text).diagnostics) {
      options.errorOutput.write(`${config.formatDiagnostic(domainFile, diagnostic)}\n`);
    }
  };
  if (!state) {
    log.error(`${domainFile} is not valid YAML; fix it and run the wizard again.`, { output });
    await report(before);
    return EXIT.invalid;
  }
  const usage = checkFlagsAgainstFile(state, flags);
  if (usage) {
    options.errorOutput.write(`create-domain-auth: ${usage}\n`);
    return EXIT.usage;
  }

  const isNewFile = existing === null;
  const choices = interactive ? await askAuthChoices(state, flags, { isNewFile }, io) : unattendedChoices(state, flags, { isNewFile });
  const after = applyAuthChoices(before, choices);
  const validation = (await configLoading).validateDomainText(after);
  if (!validation.model) {
    log.error(`The result would not be a valid ${domainFile}; nothing was written.`, { output });
    await report(after);
    return EXIT.invalid;
  }

  const { loadManifest, renderTemplates } = await import("./templates.js");
  const { applyFileChanges, generateSecret, planProjectFiles, planTemplateFiles } = await import("./file-changes.js");
  const { NEW_APP_IGNORES, newAppFiles } = await import("./new-app.js");
  const cacheComponents = plan?.kind === "planned" && plan.cacheComponents;
  const rendered = (await renderTemplates(await loadManifest(), validation.model, { cacheComponents })).map((file) => ({
    ...file,
    to: projectPath(file.to, sourceDir),
  }));
  const appFiles =
    project.kind === "new"
      ? await newAppFiles({ name: serviceNameFrom(basename(dir)), coreVersion, hasAuth: choices.type === "jwt", templates: rendered })
      : [];
  const edits = plan?.kind === "planned" ? plan.edits : [];
  const files: FileChange[] = [
    ...edits.map((edit) => edit.change),
    ...(await planTemplateFiles(dir, [...appFiles, ...rendered])),
    ...(await planProjectFiles(dir, { secret: generateSecret(), ...(project.kind === "new" && { ignoreBase: NEW_APP_IGNORES }) })),
  ];
  const middleware = findMiddleware(dir, sourceDir);
  let ownProxy: string | undefined;
  for (const [index, file] of files.entries()) {
    // The project's own proxy is never replaced (nor asked about); the user adds two lines to it.
    if (middleware && file.path === projectPath("proxy.ts", sourceDir) && (file.action === "create" || file.action === "conflict")) {
      ownProxy = middleware;
      files[index] = { ...file, action: "skip", note: `${middleware} is yours; see below for the two lines to add` };
      continue;
    }
    if (file.action !== "conflict") continue;
    const overwrite = interactive && (await askOverwrite(file.path, io));
    files[index] = {
      ...file,
      action: overwrite ? "overwrite" : "skip",
      note: overwrite ? "differs from the template" : "differs from the template; kept as it is",
    };
  }

  const domainChange: FileChange = {
    path: "domain.yaml",
    content: after,
    action: isNewFile ? "create" : after === before ? "unchanged" : "update",
  };
  const diff = formatDomainChange(isNewFile ? "" : before, after, paint);
  if (diff.length > 0) note(diff.join("\n"), isNewFile ? `${domainFile} (new)` : domainFile, { output, format: (line) => line });
  for (const edit of edits.filter((edited) => edited.change.action === "update")) {
    note(formatDomainChange(edit.before, edit.change.content, paint).join("\n"), edit.change.path, { output, format: (line) => line });
  }
  note(formatFileChanges([domainChange, ...files], paint).join("\n"), "Files", { output, format: (line) => line });
  if (ownProxy) log.warn(ownProxyAdvice(ownProxy, sourceDir), { output });

  const changes = [domainChange, ...files].filter(writesFile);
  const outcome: ProjectOutcome = {
    packageManager: project.packageManager,
    installed: false,
    startsServer: project.kind === "new" || plan?.kind !== "planned" || plan.startsServer,
  };
  if (changes.length === 0) {
    outro("Everything is up to date; nothing to write.", { output });
    return EXIT.done;
  }
  if (options.dryRun) {
    outro(`Dry run: ${changes.length} file${changes.length === 1 ? "" : "s"} would be written; nothing was.`, { output });
    return EXIT.done;
  }
  if (interactive && !(await askToWrite(io))) {
    outro("Nothing written.", { output });
    return EXIT.done;
  }
  await applyFileChanges(dir, changes);
  for (const skipped of files.filter((file) => file.action === "skip" && !(ownProxy && file.path === projectPath("proxy.ts", sourceDir)))) {
    const why = skipped.note?.startsWith("differs") ? "it differs from the template." : `${skipped.note}.`;
    log.warn(`Skipped ${skipped.path}: ${why}`, { output });
  }
  const needsInstall = changes.some((change) => change.path === "package.json");
  if (needsInstall && !options.noInstall) {
    log.step(`Installing dependencies: ${installCommand(project.packageManager)}`, { output });
    const failure = await runInstall(dir, project.packageManager);
    if (failure !== null) {
      options.errorOutput.write(`${failure}\n`);
      log.error(`${installCommand(project.packageManager)} failed; the files are written. Run it again in ${options.dir}.`, { output });
      return EXIT.invalid;
    }
  }
  const installed = !needsInstall || !options.noInstall;
  note(nextSteps(options.dir, choices, { ...outcome, installed }), "Next steps", { output, format: (line) => line });
  const [first, ...others] = changes.map((change) => change.path);
  outro(
    others.length > 0 ? `Done: wrote ${first} and ${others.length} more file${others.length === 1 ? "" : "s"}.` : `Done: wrote ${first}.`,
    { output },
  );
  return EXIT.done;
}
