/**
 * The providers a person may sign in with (docs/providers.md): their types and presets, as data
 * with no dependency, so validation, the pages and the wizard read the same table.
 */

/** What `type:` a provider may have: any OpenID Provider by its issuer, or a preset. */
export const PROVIDER_TYPES = ["oidc", "google", "microsoft", "gitlab", "github"] as const;

/** A provider's `type`. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** A provider id: used in paths and in variable names (`AUTH_PROVIDER_<ID>_CLIENT_ID`). */
export const PROVIDER_ID = /^[a-z][a-z0-9-]{0,30}$/;

/** The scopes asked of an OpenID Provider unless `scopes` says otherwise. */
export const DEFAULT_OIDC_SCOPES = ["openid", "email", "profile"] as const;

/** What each type is: its button's name, its protocol, where it lives by default, and what it vouches for. */
export interface ProviderPreset {
  readonly name: string;
  /** `oidc`: OpenID Connect by discovery at the issuer; `github`: OAuth 2.0 and GitHub's REST API. */
  readonly protocol: "oidc" | "github";
  /** The issuer when `issuer:` is not given (`null`: it must be). */
  readonly issuer: ((provider: { readonly tenant?: string | undefined }) => string) | null;
  /** Which of `issuer`, `tenant`, `url` the type reads. */
  readonly keys: readonly ("issuer" | "tenant" | "url")[];
  /** Whether its `email_verified` (or primary verified address) vouches for the address: never for Microsoft. */
  readonly vouchesForEmail: boolean;
  readonly scopes: readonly string[];
}

/** The presets by type. */
export const PROVIDER_PRESETS: Readonly<Record<ProviderType, ProviderPreset>> = {
  oidc: { name: "", protocol: "oidc", issuer: null, keys: ["issuer"], vouchesForEmail: true, scopes: DEFAULT_OIDC_SCOPES },
  google: {
    name: "Google",
    protocol: "oidc",
    issuer: () => "https://accounts.google.com",
    keys: [],
    vouchesForEmail: true,
    scopes: DEFAULT_OIDC_SCOPES,
  },
  microsoft: {
    name: "Microsoft",
    protocol: "oidc",
    issuer: ({ tenant }) => `https://login.microsoftonline.com/${tenant ?? ""}/v2.0`,
    keys: ["tenant"],
    vouchesForEmail: false,
    scopes: DEFAULT_OIDC_SCOPES,
  },
  gitlab: {
    name: "GitLab",
    protocol: "oidc",
    issuer: () => "https://gitlab.com",
    keys: ["issuer"],
    vouchesForEmail: true,
    scopes: DEFAULT_OIDC_SCOPES,
  },
  github: { name: "GitHub", protocol: "github", issuer: null, keys: ["url"], vouchesForEmail: true, scopes: ["read:user", "user:email"] },
};

/**
 * Microsoft Entra ID's multi-tenant values of `tenant`: their ID tokens name each person's own
 * tenant as the issuer, which cannot be checked against one issuer, so a directory must be named.
 */
export const MULTI_TENANT_VALUES: readonly string[] = ["organizations", "common", "consumers"];

/** GitHub.com's web address; `url:` names a GitHub Enterprise Server instead. */
export const GITHUB_URL = "https://github.com";

/** The loopback hosts where an issuer may be plain `http:` (a provider on the same machine, in development). */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The name of the variable that holds a provider's client id or secret: `acme-id` → `AUTH_PROVIDER_ACME_ID_CLIENT_ID`. */
export function providerVariable(id: string, part: "CLIENT_ID" | "CLIENT_SECRET"): string {
  return `AUTH_PROVIDER_${id.toUpperCase().replaceAll("-", "_")}_${part}`;
}

/** The problem of an issuer or `url` (docs/providers.md), or `null`: https, or http on a loopback host. */
export function providerUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a URL";
  }
  if (url.search || url.hash) return "must not have a query or a fragment";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname)) return null;
  return "must be https (http only on localhost, 127.0.0.1 or [::1])";
}
