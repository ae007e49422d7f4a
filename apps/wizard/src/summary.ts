import type { MfaModel, ProviderModel } from "@domain-auth/core/config";
import type { Segmented } from "@domain-auth/core/endpoints";
import type { FileChange } from "./file-changes.js";
import { changedHunks } from "./line-diff.js";
import { ORGANIZATION_PAGES } from "./organizations.js";
import { DEV_ORIGIN, devCallbackUrl, providerVariables } from "./providers.js";

/** Colours for a terminal, or none. */
export interface Paint {
  readonly added: (text: string) => string;
  readonly removed: (text: string) => string;
  readonly dim: (text: string) => string;
}

const plain = (text: string) => text;

/** ANSI colours when `enabled`, plain text otherwise. */
export function paintFor(enabled: boolean): Paint {
  if (!enabled) return { added: plain, removed: plain, dim: plain };
  return {
    added: (text) => `\x1b[32m${text}\x1b[39m`,
    removed: (text) => `\x1b[31m${text}\x1b[39m`,
    dim: (text) => `\x1b[2m${text}\x1b[22m`,
  };
}

/** The change to `domain.yaml` as diff-like lines: `+`/`-` for changed lines, a little context. */
export function formatDomainChange(before: string, after: string, paint: Paint): string[] {
  return changedHunks(before, after).map((line) => {
    if (line.startsWith("+")) return paint.added(line);
    if (line.startsWith("-")) return paint.removed(line);
    return paint.dim(line);
  });
}

const ACTION_LABELS: Readonly<Record<FileChange["action"], string>> = {
  create: "create",
  update: "update",
  unchanged: "unchanged",
  conflict: "differs",
  overwrite: "overwrite",
  skip: "skip",
};

/** One line per project file: what happens to it, and why. */
export function formatFileChanges(changes: readonly FileChange[], paint: Paint): string[] {
  const width = Math.max(...Object.values(ACTION_LABELS).map((label) => label.length));
  return changes.map((change) => {
    const label = ACTION_LABELS[change.action].padEnd(width);
    const note = change.note ? paint.dim(`  (${change.note})`) : "";
    const styled =
      change.action === "create" || change.action === "update" || change.action === "overwrite" ? paint.added(label) : paint.dim(label);
    return `${styled}  ${change.path}${note}`;
  });
}

/** What the next steps say of `auth.mfa`: who must use a second factor, and where the others add one. */
export function describeSecondFactors(mfa: MfaModel): string {
  if (!mfa.totp && !mfa.passkeys) return "Second factors: off (auth.mfa); a password alone signs in.";
  const factors = mfa.totp && mfa.passkeys ? "an authenticator app or a passkey" : mfa.totp ? "an authenticator app" : "a passkey";
  if (mfa.required.length === 0) return `Second factors: optional; users add ${factors} on /profile.`;
  return `Second factors: required for ${mfa.required.join(", ")}, who add ${factors} at their next sign-in (setup included); anyone else may add one on /profile.`;
}

/**
 * What the next steps say of sign-in with providers: for each provider, the callback URL to register
 * at it for development and the variables of `.env.local` to fill in; that production's start with
 * `APP_URL`. No line without providers.
 */
export function describeProviders(providers: readonly Pick<ProviderModel, "id" | "name">[], authEntity: Segmented): string[] {
  if (providers.length === 0) return [];
  const width = Math.max(...providers.map(({ name }) => name.length));
  const indent = " ".repeat(width + 4);
  return [
    "Sign-in with providers: register each callback URL at its provider,",
    "then fill in its client id and secret in .env.local:",
    ...providers.flatMap(({ id, name }) => [
      `  ${name.padEnd(width)}  ${devCallbackUrl(authEntity, id)}`,
      ...providerVariables(id).map((variable) => `${indent}${variable}`),
    ]),
    `In production, APP_URL takes the place of ${DEV_ORIGIN}.`,
  ];
}

/** `A`, `A or B`, `A, B or C`. */
function eitherOf(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/**
 * What the next steps say of `auth.organizations`: the roles members hold, that `tenant: true` puts
 * an entity's records in an organization (and which entities have it), and where the pages are. No
 * line without organizations. Short lines: the note is as wide as the terminal.
 */
export function describeOrganizations(organizations: { readonly roles: readonly string[] } | null, tenants: readonly string[]): string[] {
  if (organizations === null) return [];
  const { roles } = organizations;
  return [
    `Organizations: members hold ${eitherOf(roles)};`,
    `whoever creates one is its ${roles[0]}.`,
    "tenant: true on an entity makes its records belong to an organization",
    tenants.length > 0 ? `(so far: ${tenants.join(", ")}).` : "(no entity has it yet: add it in domain.yaml).",
    `Pages: ${ORGANIZATION_PAGES.list} (yours, create one), ${ORGANIZATION_PAGES.item} (members, invitations).`,
  ];
}
