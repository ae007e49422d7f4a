import type { MfaModel } from "@domain-auth/core/config";
import type { AuthType, Endpoint } from "@domain-auth/core/vocabulary";
import { type CredentialField, type DomainState, detectAuthEntity, missingCredentials, registerRoleCandidates } from "./domain-state.js";
import { DEFAULT_ORGANIZATION_ROLES } from "./organizations.js";
import { managedPreset, type PresetProvider } from "./providers.js";

/** Every answer the wizard collects: what the `auth` block (and the auth entity) should become. */
export interface AuthChoices {
  readonly type: AuthType;
  /** The auth entity (used with `jwt`). */
  readonly entity: string;
  /** Credential fields to add to the auth entity (used with `jwt`). */
  readonly addFields: readonly CredentialField[];
  readonly roles: readonly string[];
  /** The role register gives, the `default` of the auth entity's `role` field; `null` for none (used with `jwt`). */
  readonly defaultRole: string | null;
  /** Which auth endpoints exist (used with `jwt`). */
  readonly endpoints: Readonly<Record<Endpoint, boolean>>;
  /** `auth.verifyEmail`: sign-in needs a confirmed e-mail address (used with `jwt`). */
  readonly verifyEmail: boolean;
  /** `auth.mfa`: the second factors, and the roles that must use one (used with `jwt`). */
  readonly mfa: MfaModel;
  /**
   * The presets people may sign in with, as `auth.providers` declares them under their own id
   * (`google: { type: google }`); the file's other providers stay as they are (used with `jwt`).
   * Absent: `auth.providers` stays as the file has it.
   */
  readonly providers?: readonly PresetProvider[];
  /**
   * The roles inside an organization, as `auth.organizations.roles` declares them (its `manage` and
   * `create` stay as the file has them); `[]` for no organizations, which takes `auth.organizations`
   * out (used with `jwt`). Absent: `auth.organizations` stays as the file has it.
   */
  readonly organizations?: readonly string[];
}

/** The answers given as flags; an absent key is a question still open. */
export interface ChoiceFlags {
  readonly type?: AuthType;
  readonly entity?: string;
  readonly roles?: readonly string[];
  /** `""` means "no default role". */
  readonly defaultRole?: string;
  /** Endpoints turned off with `--no-<endpoint>`. */
  readonly disabledEndpoints: readonly Endpoint[];
  /** `--verify-email` / `--no-verify-email`. */
  readonly verifyEmail?: boolean;
  /** `--mfa-required ROLES`: the roles that must use a second factor (`[]` for `""`); `--no-mfa`: `"off"`. */
  readonly mfa?: readonly string[] | "off";
  /** `--providers google,github`: the presets people may sign in with (`[]` for `""`). */
  readonly providers?: readonly PresetProvider[];
  /** `--organizations Owner,Manager,Member`: the roles inside an organization; `[]` for `""` and `--no-organizations`. */
  readonly organizations?: readonly string[];
}

/** `--no-mfa`: neither second factor exists, so no role can be required to use one. */
export const MFA_OFF: MfaModel = { totp: false, passkeys: false, required: [] };

/**
 * Second factors with `required` as the roles that must use one: the factors stay as the file has
 * them, and both come back on when the file turned both off (a requirement needs one to meet it).
 */
export function mfaRequiring(current: MfaModel, required: readonly string[]): MfaModel {
  const noFactor = !current.totp && !current.passkeys;
  return { totp: noFactor || current.totp, passkeys: noFactor || current.passkeys, required: [...required] };
}

/** The auth type to start from: the flag, else the file's (when it is one the wizard can write), else `jwt`. */
export function initialType(state: DomainState, flags: ChoiceFlags): AuthType {
  if (flags.type) return flags.type;
  return state.type === "none" ? "none" : "jwt";
}

/** The entity to start from: the flag, else `auth.entity` or the detected one, else `User`, else the first entity. */
export function initialEntity(state: DomainState, flags: ChoiceFlags): string {
  const names = state.entities.map((entity) => entity.name);
  return flags.entity ?? detectAuthEntity(state) ?? (names.includes("User") ? "User" : names[0]) ?? "User";
}

/**
 * The default role to start from. The flag wins; otherwise the file's current default is kept.
 * For a new file, a default that the chosen roles do not allow gives way to the least privileged role:
 * the last listed (roles are listed from the most to the least privileged, the setup role first).
 */
export function initialDefaultRole(
  state: DomainState,
  flags: ChoiceFlags,
  options: { entity: string; roles: readonly string[]; isNewFile: boolean },
): string | null {
  if (flags.defaultRole !== undefined) return flags.defaultRole === "" ? null : flags.defaultRole;
  const current = state.entities.find((entity) => entity.name === options.entity)?.roleDefault ?? null;
  if (!options.isNewFile) return current;
  const candidates = registerRoleCandidates(options.roles);
  return current !== null && candidates.includes(current) ? current : (candidates.at(-1) ?? null);
}

/**
 * The register role the question starts on: the file's (or flag's) when the roles still hold it, no
 * role when the file gives none, else the least privileged, the last listed.
 */
export function registerRoleToOffer(initial: string | null, candidates: readonly string[]): string {
  if (initial === null) return "";
  return candidates.includes(initial) ? initial : (candidates.at(-1) ?? "");
}

/** What the register question says of the last role listed, which it starts on unless the file gives another. */
export const LEAST_PRIVILEGED_HINT = "least privileged, the last listed";

/** The endpoints to start from: the file's, with the `--no-*` flags applied. */
export function initialEndpoints(state: DomainState, flags: ChoiceFlags): Record<Endpoint, boolean> {
  const endpoints = { ...state.endpoints };
  for (const endpoint of flags.disabledEndpoints) endpoints[endpoint] = false;
  return endpoints;
}

/** Whether to require confirmed e-mail addresses: the flag, else the file's `auth.verifyEmail`. */
export function initialVerifyEmail(state: DomainState, flags: ChoiceFlags): boolean {
  return flags.verifyEmail ?? state.verifyEmail;
}

/** The second factors to start from: the flag, else the file's `auth.mfa` (its defaults when absent). */
export function initialMfa(state: DomainState, flags: ChoiceFlags): MfaModel {
  if (flags.mfa === "off") return MFA_OFF;
  if (flags.mfa) return mfaRequiring(state.mfa, flags.mfa);
  return state.mfa;
}

/** The presets the file declares under their own id (`google: { type: google }`), in its order. */
export function declaredPresets(state: DomainState): PresetProvider[] {
  return state.providers.flatMap(({ id, type }) => managedPreset(id, type) ?? []);
}

/** The presets to start from: the flag, else those the file declares under their own id. */
export function initialProviders(state: DomainState, flags: ChoiceFlags): readonly PresetProvider[] {
  return flags.providers ?? declaredPresets(state);
}

/**
 * The organization roles the question starts from: the flag's, else the file's, else
 * {@link DEFAULT_ORGANIZATION_ROLES} less those a global role of `globalRoles` is named like (the
 * starter's `Member` leaves `Owner, Manager`), which the core would refuse.
 */
export function initialOrganizationRoles(state: DomainState, flags: ChoiceFlags, globalRoles: readonly string[]): readonly string[] {
  if (flags.organizations?.length) return flags.organizations;
  if (state.organizationRoles?.length) return state.organizationRoles;
  const free = DEFAULT_ORGANIZATION_ROLES.filter((role) => !globalRoles.includes(role));
  return free.length > 0 ? free : DEFAULT_ORGANIZATION_ROLES;
}

/**
 * The answers of an unattended run (`--yes`): the flags, and for every other question the file's
 * current value (or the starter's for a new file). Missing credential fields are added.
 */
export function unattendedChoices(state: DomainState, flags: ChoiceFlags, options: { isNewFile: boolean }): AuthChoices {
  const entity = initialEntity(state, flags);
  const roles = flags.roles ?? state.roles;
  return {
    type: initialType(state, flags),
    entity,
    addFields: missingCredentials(state, entity),
    roles,
    defaultRole: initialDefaultRole(state, flags, { entity, roles, isNewFile: options.isNewFile }),
    endpoints: initialEndpoints(state, flags),
    verifyEmail: initialVerifyEmail(state, flags),
    mfa: initialMfa(state, flags),
    providers: initialProviders(state, flags),
    // Without the flag, `auth.organizations` stays as the file has it.
    ...(flags.organizations !== undefined && { organizations: flags.organizations }),
  };
}
