import { parseArgs } from "node:util";
import { endpointFlagLabel } from "@domain-auth/core/endpoints";
import type { Endpoint } from "@domain-auth/core/vocabulary";
import { closestMatch, ENDPOINTS } from "@domain-auth/core/vocabulary";
import type { ChoiceFlags } from "./auth-choices.js";
import { isPresetProvider, PRESET_PROVIDERS, type PresetProvider } from "./providers.js";
import { parseList, parseRoleList, validateAuthType, validateProviderList, validateRoleList } from "./validators.js";

/** One line of help per endpoint flag with an option of its own, naming what it switches off. */
const ENDPOINT_OPTION_LINES = ENDPOINTS.filter((name) => name !== "verifyEmail")
  .map((name) => `  ${`--${endpointOption(name)}`.padEnd(23)}turn off ${endpointFlagLabel(name, { segment: "<auth>" })}`)
  .join("\n");

/** The help text of `create-domain-auth`. */
export const USAGE = `Usage: create-domain-auth [dir] [options]
       create-domain-auth validate [file]
       create-domain-auth openapi [file] [--out FILE]
       create-domain-auth admin <email> [--password-stdin]

Adds domain-auth to the Next.js App Router project in dir (default: the current
folder), or creates one when dir has no package.json: writes domain.yaml's auth
block, scaffolds the route handler and pages, edits next.config and package.json,
and installs @domain-auth/core.

Options:
  --type jwt|none        how callers authenticate
  --entity NAME          the entity that holds users
  --roles A,B,C          the roles tokens may carry
  --default-role NAME    the role register gives ("" for none; never the setup role)
${ENDPOINT_OPTION_LINES}
  --verify-email         require a confirmed e-mail address before sign-in (auth.verifyEmail)
  --no-verify-email      do not require it
  --mfa-required ROLES   the roles that must use a second factor, e.g. Admin ("" for none)
  --no-mfa               no second factors: turn off the authenticator app and passkeys
  --providers LIST       the providers people may sign in with, e.g. google,github
                         (${PRESET_PROVIDERS.join(", ")}; "" for none; with jwt only)
  --organizations ROLES  records belong to organizations, whose members hold these roles,
                         e.g. Owner,Manager,Member (the first is the creator's; with jwt only)
  --no-organizations     no organizations: auth.organizations is taken out (or --organizations "")
  --no-install           do not run the package manager's install
  --keep-start           keep a "next start" start script (default: node server.mjs)
  --core FILE            depend on this @domain-auth/core tarball (npm pack) in place of
                         the registry's, e.g. to try the wizard from a clone
  -y, --yes              ask nothing: flags, else the file's current values
  --dry-run              show the change, write nothing
  -h, --help             show this help
  -v, --version          show the version

Exit codes: 0 done, 1 validation error or a project the wizard cannot edit safely,
2 bad usage, 130 cancelled.
`;

/** What the command line asks for. */
export type WizardArgs =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "error"; readonly message: string }
  | {
      readonly kind: "run";
      readonly dir: string;
      readonly flags: ChoiceFlags;
      readonly yes: boolean;
      readonly dryRun: boolean;
      /** `--no-install`: write the files, install nothing. */
      readonly noInstall: boolean;
      /** `--keep-start`: leave a stock `next start` script as it is. */
      readonly keepStart: boolean;
      /** `--core FILE`: the `@domain-auth/core` tarball to depend on, as typed; unset: the registry's. */
      readonly core?: string;
    };

const OPTIONS = {
  type: { type: "string" },
  entity: { type: "string" },
  roles: { type: "string" },
  "default-role": { type: "string" },
  "no-login": { type: "boolean" },
  "no-register": { type: "boolean" },
  "no-me": { type: "boolean" },
  "no-setup": { type: "boolean" },
  "no-logout": { type: "boolean" },
  "no-refresh": { type: "boolean" },
  "no-sessions": { type: "boolean" },
  "no-password-reset": { type: "boolean" },
  "verify-email": { type: "boolean" },
  "no-verify-email": { type: "boolean" },
  "mfa-required": { type: "string" },
  "no-mfa": { type: "boolean" },
  providers: { type: "string" },
  organizations: { type: "string" },
  "no-organizations": { type: "boolean" },
  "no-install": { type: "boolean" },
  "keep-start": { type: "boolean" },
  core: { type: "string" },
  yes: { type: "boolean", short: "y" },
  "dry-run": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** The `--no-…` option of an endpoint flag: `passwordReset` → `no-password-reset`. */
function endpointOption(name: Endpoint): `no-${string}` & keyof typeof OPTIONS {
  return `no-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}` as `no-${string}` & keyof typeof OPTIONS;
}

/** `unknown option --typo (did you mean --type?)`: the option as typed, and the closest one there is. */
export function unknownOptionMessage(option: string): string {
  const long = Object.keys(OPTIONS);
  const short: string[] = Object.values(OPTIONS).flatMap((spec) => ("short" in spec ? [spec.short] : []));
  const name = option.replace(/^-+/, "");
  const match = option.startsWith("--") || name.length > 1 ? closestMatch(name, long) : undefined;
  const suggestion = match !== undefined ? `--${match}` : short.includes(name.toLowerCase()) ? `-${name.toLowerCase()}` : undefined;
  return `unknown option ${option}${suggestion ? ` (did you mean ${suggestion}?)` : ""}`;
}

type ParsedArgs = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
type ParsedValues = ParsedArgs["values"];

/** Parses the wizard's command line; never throws. */
export function parseWizardArgs(argv: readonly string[]): WizardArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const { code, message } = error as Error & { code?: string };
    const unknown = code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /^Unknown option '([^']+)'/.exec(message)?.[1] : undefined;
    return { kind: "error", message: unknown === undefined ? message : unknownOptionMessage(unknown) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  if (positionals.length > 1) return { kind: "error", message: `expected at most one folder, got: ${positionals.join(" ")}` };
  const flags = choiceFlags(values);
  if (typeof flags === "string") return { kind: "error", message: flags };
  return {
    kind: "run",
    dir: positionals[0] ?? ".",
    flags,
    yes: values.yes === true,
    dryRun: values["dry-run"] === true,
    noInstall: values["no-install"] === true,
    keepStart: values["keep-start"] === true,
    ...(values.core !== undefined && { core: values.core }),
  };
}

/** The answers the flags give, or what is wrong with them. */
function choiceFlags(values: ParsedValues): ChoiceFlags | string {
  const typeError = values.type === undefined ? undefined : validateAuthType(values.type);
  if (typeError) return typeError;
  const rolesError = values.roles === undefined ? undefined : validateRoleList(values.roles);
  if (rolesError) return `--roles: ${rolesError}`;

  if (values["verify-email"] && values["no-verify-email"]) return "--verify-email and --no-verify-email contradict each other";
  const mfaRequired = values["mfa-required"];
  if (mfaRequired !== undefined && values["no-mfa"]) return "--mfa-required and --no-mfa contradict each other";
  const mfaRolesError = mfaRequired === undefined ? undefined : validateRoleList(mfaRequired);
  if (mfaRolesError) return `--mfa-required: ${mfaRolesError}`;
  const mfa = values["no-mfa"] ? "off" : mfaRequired === undefined ? undefined : parseRoleList(mfaRequired);
  const providers = providersFlag(values);
  if (typeof providers === "string") return providers;
  const organizations = organizationsFlag(values);
  if (typeof organizations === "string") return organizations;
  // `--no-verify-email` answers the requirement question; the verifyEmail endpoint flag has no option of its own.
  const disabledEndpoints = ENDPOINTS.filter((name) => name !== "verifyEmail" && values[endpointOption(name)] === true);
  const verifyEmail = values["verify-email"] ? true : values["no-verify-email"] ? false : undefined;
  return {
    ...(values.type !== undefined && { type: values.type as ChoiceFlags["type"] }),
    ...(values.entity !== undefined && { entity: values.entity }),
    ...(values.roles !== undefined && { roles: parseRoleList(values.roles) }),
    ...(values["default-role"] !== undefined && { defaultRole: values["default-role"] }),
    disabledEndpoints,
    ...(verifyEmail !== undefined && { verifyEmail }),
    ...(mfa !== undefined && { mfa }),
    ...(providers !== undefined && { providers }),
    ...(organizations !== undefined && { organizations }),
  };
}

/** `--providers`: the presets listed, `undefined` without the flag, or why they cannot be (a string). */
function providersFlag(values: ParsedValues): readonly PresetProvider[] | string | undefined {
  if (values.providers === undefined) return undefined;
  const problem = validateProviderList(values.providers);
  if (problem) return `--providers: ${problem}`;
  const providers = parseList(values.providers).filter(isPresetProvider);
  if (values.type === "none" && providers.length > 0) {
    return "--type none and --providers contradict each other: under auth.type none nobody signs in";
  }
  return providers;
}

/**
 * `--organizations` / `--no-organizations`: the organization roles listed (`[]` for `""` and
 * `--no-organizations`), `undefined` without either, or why they cannot be (a string). The roles are
 * checked against the core's rules once domain.yaml is read (its `auth.roles` among them).
 */
function organizationsFlag(values: ParsedValues): readonly string[] | string | undefined {
  if (values.organizations !== undefined && values["no-organizations"]) {
    return "--organizations and --no-organizations contradict each other";
  }
  if (values["no-organizations"]) return [];
  if (values.organizations === undefined) return undefined;
  const roles = parseRoleList(values.organizations);
  if (values.type === "none" && roles.length > 0) {
    return "--type none and --organizations contradict each other: under auth.type none nobody signs in, so nobody is a member";
  }
  return roles;
}
