import type { Readable, Writable } from "node:stream";
import { confirm, isCancel, log, multiselect, select, text } from "@clack/prompts";
import type { MfaModel } from "@domain-auth/core/config";
import { ENDPOINT_HINTS, endpointFlagLabel } from "@domain-auth/core/endpoints";
import { ENDPOINTS, PROVIDER_PRESETS, PROVIDER_TYPES, type ProviderType, toSegment } from "@domain-auth/core/vocabulary";
import {
  type AuthChoices,
  type ChoiceFlags,
  initialDefaultRole,
  initialEndpoints,
  initialEntity,
  initialMfa,
  initialOrganizationRoles,
  initialProviders,
  initialType,
  initialVerifyEmail,
  LEAST_PRIVILEGED_HINT,
  MFA_OFF,
  mfaRequiring,
  registerRoleToOffer,
  unattendedChoices,
} from "./auth-choices.js";
import { type DomainState, missingCredentials, registerRoleCandidates, setupRoleOf } from "./domain-state.js";
import {
  DEFAULT_ORGANIZATION_ROLES,
  organizationRolesProblem,
  tenantEntitiesText,
  type ValidateDomainText,
  validateOrganizationRolesCoverUses,
} from "./organizations.js";
import { managedPreset, neededKey, PRESET_PROVIDERS } from "./providers.js";
import { parseRoleList, validateRoleList, validateRolesCoverPermissions } from "./validators.js";

/** Where prompts read keys from and draw to. */
export interface PromptStreams {
  readonly input: Readable;
  readonly output: Writable;
}

/** Thrown when the user cancels a prompt (Ctrl-C or Escape). */
export class PromptCancelled extends Error {
  override readonly name = "PromptCancelled";
}

function answered<T>(value: T): Exclude<T, symbol> {
  if (isCancel(value)) throw new PromptCancelled("cancelled");
  return value as Exclude<T, symbol>;
}

/** Asks whether to start from the starter `domain.yaml` when the folder has none. */
export async function askStarter(folder: string, io: PromptStreams): Promise<boolean> {
  return answered(await confirm({ message: `${folder} has no domain.yaml. Start from a starter file with a User entity?`, ...io }));
}

async function askType(state: DomainState, flags: ChoiceFlags, io: PromptStreams): Promise<AuthChoices["type"]> {
  if (flags.type) return flags.type;
  return answered(
    await select<AuthChoices["type"] | "cookie" | "oauth2">({
      message: "How do callers authenticate?",
      options: [
        { value: "jwt", label: "JWT", hint: "bearer tokens; login, register, me and setup endpoints" },
        { value: "none", label: "None", hint: "no accounts; every operation is open" },
        { value: "cookie", label: "Cookie sessions", hint: "planned", disabled: true },
        { value: "oauth2", label: "OAuth 2", hint: "planned", disabled: true },
      ],
      initialValue: initialType(state, flags),
      ...io,
    }),
  ) as AuthChoices["type"];
}

async function askEntity(
  state: DomainState,
  flags: ChoiceFlags,
  io: PromptStreams,
): Promise<{ entity: string; addFields: AuthChoices["addFields"] }> {
  if (state.entities.length === 0) return { entity: initialEntity(state, flags), addFields: [] };
  for (;;) {
    const entity =
      flags.entity ??
      answered(
        await select({
          message: "Which entity holds the users?",
          options: state.entities.map(({ name }) => {
            const missing = missingCredentials(state, name);
            return { value: name, hint: missing.length === 0 ? "has email and password" : `no ${missing.join(" or ")} field yet` };
          }),
          initialValue: initialEntity(state, flags),
          ...io,
        }),
      );
    const missing = missingCredentials(state, entity);
    if (missing.length === 0) return { entity, addFields: [] };
    const fields = missing.join(" and ");
    const add = answered(await confirm({ message: `Add ${fields} to ${entity}? An auth entity needs both.`, ...io }));
    if (add || flags.entity !== undefined) return { entity, addFields: add ? missing : [] };
    log.warn(`Pick an entity that has email and password, or let the wizard add them.`, io);
  }
}

async function askRoles(state: DomainState, flags: ChoiceFlags, rules: Rules, io: PromptStreams): Promise<string[]> {
  if (flags.roles) return [...flags.roles];
  // The roles `--organizations` gives stay: no global role may take one of their names. (The flag
  // was checked against the core before the first question, so its validation is loaded.)
  const organizations = flags.organizations?.length ? flags.organizations : undefined;
  const validate = organizations && (await rules.validate);
  const apartFromOrganizations = (roles: string[]) => {
    const problem = validate && organizations && organizationRolesProblem(validate, organizations, roles);
    return problem && `--organizations: ${problem}`;
  };
  const value = answered(
    await text({
      message: "Which roles can users hold? (comma-separated; Admin, or else the first, is the setup role)",
      placeholder: "Admin, Editor, Reader",
      initialValue: state.roles.join(", "),
      validate: (typed) => {
        const roles = parseRoleList(typed ?? "");
        return validateRoleList(typed) ?? validateRolesCoverPermissions(roles, state.usedRoles) ?? apartFromOrganizations(roles);
      },
      ...io,
    }),
  );
  return parseRoleList(value ?? "");
}

async function askDefaultRole(
  state: DomainState,
  flags: ChoiceFlags,
  context: { entity: string; roles: readonly string[]; isNewFile: boolean },
  io: PromptStreams,
): Promise<string | null> {
  if (flags.defaultRole !== undefined) return flags.defaultRole === "" ? null : flags.defaultRole;
  const candidates = registerRoleCandidates(context.roles);
  const initial = registerRoleToOffer(initialDefaultRole(state, flags, context), candidates);
  const role = answered(
    await select({
      message: `Which role does register give new users? (${setupRoleOf(context.roles)}, the setup role, is never given)`,
      options: [
        ...candidates.map((value) => (value === candidates.at(-1) ? { value, hint: LEAST_PRIVILEGED_HINT } : { value })),
        { value: "", label: "No role", hint: "signed in, holding no role" },
      ],
      initialValue: initial,
      ...io,
    }),
  );
  return role === "" ? null : role;
}

async function askEndpoints(state: DomainState, flags: ChoiceFlags, entity: string, io: PromptStreams): Promise<AuthChoices["endpoints"]> {
  const initial = initialEndpoints(state, flags);
  if (flags.disabledEndpoints.length > 0) return initial;
  const chosen = answered(
    await multiselect({
      message: "Which endpoints should exist?",
      options: ENDPOINTS.map((name) => ({
        value: name,
        label: endpointFlagLabel(name, { segment: toSegment(entity) }),
        hint: ENDPOINT_HINTS[name],
      })),
      initialValues: ENDPOINTS.filter((name) => initial[name]),
      required: false,
      ...io,
    }),
  );
  return Object.fromEntries(ENDPOINTS.map((name) => [name, chosen.includes(name)])) as AuthChoices["endpoints"];
}

async function askVerifyEmail(state: DomainState, flags: ChoiceFlags, io: PromptStreams): Promise<boolean> {
  if (flags.verifyEmail !== undefined) return flags.verifyEmail;
  return answered(
    await confirm({
      message: "Require users who register to confirm their e-mail address before they can sign in?",
      initialValue: initialVerifyEmail(state, flags),
      ...io,
    }),
  );
}

/** The answers of the second-factors question: required for the setup role, or for other roles the file lists; optional; off. */
type MfaAnswer = "setup" | "listed" | "optional" | "off";

function initialMfaAnswer(
  mfa: MfaModel,
  context: { offers: readonly MfaAnswer[]; listed: readonly string[]; isNewFile: boolean },
): MfaAnswer {
  const { offers, listed } = context;
  // A new file starts from "required for the setup role": no account exists yet, so the first
  // administrator sets up a factor while creating it on /setup. An existing file starts from what
  // it says: requiring a factor there would stop every administrator at their next sign-in.
  if (context.isNewFile && offers.includes("setup")) return "setup";
  if (!mfa.totp && !mfa.passkeys) return "off";
  if (listed.length === 0) return "optional";
  return offers.includes("listed") ? "listed" : "setup";
}

async function askMfa(
  state: DomainState,
  flags: ChoiceFlags,
  context: { roles: readonly string[]; isNewFile: boolean },
  io: PromptStreams,
): Promise<MfaModel> {
  if (flags.mfa !== undefined) return initialMfa(state, flags);
  // Without declared roles there is no role to require: the setup role would be undeclared.
  const setupRole = context.roles.length > 0 ? setupRoleOf(context.roles) : undefined;
  // A role the roles question dropped is dropped from the requirement too.
  const listed = state.mfa.required.filter((role) => context.roles.includes(role));
  const options: { value: MfaAnswer; label: string; hint: string }[] = [];
  if (setupRole !== undefined)
    options.push({ value: "setup", label: `Required for ${setupRole} (recommended)`, hint: "they set one up at their next sign-in" });
  if (listed.length > 0 && !(listed.length === 1 && listed[0] === setupRole))
    options.push({ value: "listed", label: `Required for ${listed.join(", ")}`, hint: "as domain.yaml says" });
  options.push(
    { value: "optional", label: "Optional for everyone", hint: "users may turn one on in their profile" },
    { value: "off", label: "Off", hint: "passwords only" },
  );
  const offers = options.map((option) => option.value);
  const answer = answered(
    await select({
      message: "Second factors (authenticator app, passkeys)",
      options,
      initialValue: initialMfaAnswer(state.mfa, { offers, listed, isNewFile: context.isNewFile }),
      ...io,
    }),
  );
  if (answer === "off") return MFA_OFF;
  if (answer === "optional") return mfaRequiring(state.mfa, []);
  return mfaRequiring(state.mfa, answer === "listed" ? listed : [setupRole as string]);
}

/** What the providers question says of the file's other providers, which it leaves as they are: `""` when there are none. */
function otherProvidersNote(state: DomainState): string {
  const others = state.providers.filter(({ id, type }) => managedPreset(id, type) === undefined).map(({ id }) => id);
  if (others.length === 0) return "";
  return others.length === 1
    ? ` (${others[0]} stays as domain.yaml declares it)`
    : ` (${others.join(", ")} stay as domain.yaml declares them)`;
}

/** The presets, each with its name; one that needs a key only the file can say (Microsoft's tenant) is shown disabled. */
const PROVIDER_OPTIONS = PROVIDER_TYPES.filter((type) => type !== "oidc").map((type) => {
  const needs = neededKey(type);
  const label = PROVIDER_PRESETS[type].name;
  return needs ? { value: type, label, hint: `needs its ${needs}: declare it in domain.yaml`, disabled: true } : { value: type, label };
});

async function askProviders(state: DomainState, flags: ChoiceFlags, io: PromptStreams): Promise<AuthChoices["providers"]> {
  if (flags.providers) return flags.providers;
  const chosen = answered(
    await multiselect<ProviderType>({
      message: `Which providers may people sign in with?${otherProvidersNote(state)}`,
      options: PROVIDER_OPTIONS,
      initialValues: [...initialProviders(state, flags)],
      required: false,
      ...io,
    }),
  );
  // In the order offered: the order of the buttons.
  return PRESET_PROVIDERS.filter((type) => chosen.includes(type));
}

/**
 * Asks whether records belong to organizations and, if so, the roles inside one, checked by the core's
 * rules against the global roles. `[]` for no. A file with tenant entities needs organizations: only
 * the roles are asked then.
 */
async function askOrganizations(
  state: DomainState,
  flags: ChoiceFlags,
  context: { roles: readonly string[]; rules: Rules },
  io: PromptStreams,
): Promise<readonly string[]> {
  if (flags.organizations) return flags.organizations;
  if (state.tenants.length > 0) {
    const whose = state.tenants.length === 1 ? "its" : "their";
    log.info(`${tenantEntitiesText(state.tenants)} (tenant: true): ${whose} records belong to an organization.`, io);
  } else {
    const wanted = answered(
      await confirm({
        message: "Do the app's records belong to teams or organizations?",
        initialValue: state.organizationRoles !== undefined,
        ...io,
      }),
    );
    if (!wanted) return [];
  }
  const validate = await context.rules.validate;
  const value = answered(
    await text({
      message: "Which roles can members hold in an organization? (highest first; the first is its creator's)",
      placeholder: DEFAULT_ORGANIZATION_ROLES.join(", "),
      initialValue: initialOrganizationRoles(state, flags, context.roles).join(", "),
      validate: (typed) => {
        const roles = parseRoleList(typed ?? "");
        return (
          organizationRolesProblem(validate, roles, context.roles) ?? validateOrganizationRolesCoverUses(roles, state.usedOrganizationRoles)
        );
      },
      ...io,
    }),
  );
  return parseRoleList(value ?? "");
}

/** What the questions check answers with: the core's validation, loading while the first one is on screen. */
export interface Rules {
  readonly validate: Promise<ValidateDomainText>;
}

/** Asks every question without a flag, with the file's current values as defaults. */
export async function askAuthChoices(
  state: DomainState,
  flags: ChoiceFlags,
  options: { isNewFile: boolean; rules: Rules },
  io: PromptStreams,
): Promise<AuthChoices> {
  const type = await askType(state, flags, io);
  // Nothing else is asked under `none`: the file's values, as an unattended run keeps them, no field added.
  if (type === "none") return { ...unattendedChoices(state, flags, options), type, addFields: [] };
  const { entity, addFields } = await askEntity(state, flags, io);
  const roles = await askRoles(state, flags, options.rules, io);
  const defaultRole = await askDefaultRole(state, flags, { entity, roles, isNewFile: options.isNewFile }, io);
  const endpoints = await askEndpoints(state, flags, entity, io);
  const verifyEmail = await askVerifyEmail(state, flags, io);
  const mfa = await askMfa(state, flags, { roles, isNewFile: options.isNewFile }, io);
  const providers = await askProviders(state, flags, io);
  const organizations = await askOrganizations(state, flags, { roles, rules: options.rules }, io);
  return { type, entity, addFields, roles, defaultRole, endpoints, verifyEmail, mfa, providers, organizations };
}

/** Asks whether to replace a file that differs from its template. */
export async function askOverwrite(path: string, io: PromptStreams): Promise<boolean> {
  return answered(await confirm({ message: `${path} differs from the template. Overwrite it?`, initialValue: false, ...io }));
}

/** Asks for the go-ahead before anything is written. */
export async function askToWrite(io: PromptStreams): Promise<boolean> {
  return answered(await confirm({ message: "Write these changes?", ...io }));
}
