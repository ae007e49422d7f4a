import { asRecord, isRecord, type Loose } from "./loose-data.js";
import { MULTI_TENANT_VALUES, PROVIDER_PRESETS, type ProviderType, providerUrlProblem } from "./providers.js";
import type { DomainScope } from "./rule-context.js";
import type { Finding } from "./source.js";

/** Fields a provider fills on a user it creates (docs/providers.md): the rest need a `default`. */
const FILLED_BY_PROVIDER = new Set(["email", "password", "name", "role"]);

/** The rules of one provider: its type's keys, and an issuer or `url` it can be reached at. */
function checkProvider(id: string, provider: Loose): Finding[] {
  const type = provider.type as ProviderType;
  const preset = PROVIDER_PRESETS[type];
  if (!preset) return []; // an unknown type is the schema's finding
  const path = ["auth", "providers", id] as const;
  const findings: Finding[] = [];
  for (const key of ["issuer", "tenant", "url"] as const) {
    if (provider[key] !== undefined && !preset.keys.includes(key)) {
      const owners = Object.entries(PROVIDER_PRESETS)
        .filter(([, other]) => other.keys.includes(key))
        .map(([name]) => name);
      findings.push({
        severity: "error",
        path: [...path, key],
        anchor: "key",
        message: `${key} applies to type ${owners.join(" or ")} only`,
      });
    }
  }
  if (type === "microsoft" && (typeof provider.tenant !== "string" || MULTI_TENANT_VALUES.includes(provider.tenant))) {
    findings.push({
      severity: "error",
      path: provider.tenant === undefined ? path : [...path, "tenant"],
      anchor: provider.tenant === undefined ? "key" : "value",
      message:
        "a microsoft provider needs tenant: your directory's domain or id (organizations, common and consumers name no one issuer to check its ID tokens against)",
    });
  }
  if (type === "oidc" && provider.issuer === undefined) {
    findings.push({ severity: "error", path, anchor: "key", message: "an oidc provider needs issuer: the address of its OpenID Provider" });
  }
  for (const key of ["issuer", "url"] as const) {
    const value = provider[key];
    const problem = typeof value === "string" ? providerUrlProblem(value) : null;
    if (problem) findings.push({ severity: "error", path: [...path, key], message: `${key} ${problem}` });
  }
  if (preset.protocol === "oidc" && Array.isArray(provider.scopes) && !provider.scopes.includes("openid")) {
    findings.push({ severity: "error", path: [...path, "scopes"], message: "an OpenID provider's scopes must include openid" });
  }
  return findings;
}

/** A required field of the auth entity that a user made by a provider could not be given. */
function checkFillable(domain: DomainScope, entities: Loose): Finding[] {
  const fields = asRecord(asRecord(entities[domain.authEntity ?? ""])?.fields) ?? {};
  return Object.entries(fields)
    .filter(([name, field]) => !FILLED_BY_PROVIDER.has(name) && isRecord(field) && field.required === true && field.default === undefined)
    .map(([name]) => ({
      severity: "error" as const,
      path: ["entities", domain.authEntity ?? "", "fields", name],
      anchor: "key" as const,
      message: `users a provider signs up have only an email and a name: give ${name} a default, or make it optional`,
    }));
}

/**
 * `auth.providers` (docs/providers.md#domainyaml): only under `auth.type: jwt`; each provider's keys fit
 * its type, an `oidc` one names its issuer, issuers and `url` are https (http on a loopback host);
 * and every other required field of the auth entity has a default.
 */
export function checkProviders(domain: DomainScope, auth: Loose, entities: Loose): Finding[] {
  const providers = asRecord(auth.providers);
  if (!providers) return [];
  if (domain.authType === "none") {
    return [
      {
        severity: "error",
        path: ["auth", "providers"],
        anchor: "key",
        message: "auth.type is none: nobody signs in, so there are no providers",
      },
    ];
  }
  const findings = Object.entries(providers).flatMap(([id, provider]) => (isRecord(provider) ? checkProvider(id, provider) : []));
  return Object.keys(providers).length > 0 && domain.authEntity ? [...findings, ...checkFillable(domain, entities)] : findings;
}
