import { asRecord, type Loose } from "./loose-data.js";
import { checkDeclaredRole } from "./role-rules.js";
import type { DomainScope } from "./rule-context.js";
import type { Finding } from "./source.js";

/**
 * `auth.mfa` (docs/mfa.md): every role in `required` is declared (rule 5's message); a requirement
 * needs a factor to meet it; under `auth.type: none` the block is a warning (nothing signs in).
 */
export function checkMfa(domain: DomainScope, auth: Loose): Finding[] {
  const mfa = asRecord(auth.mfa);
  if (!mfa) return [];
  const path = ["auth", "mfa"] as const;
  const findings: Finding[] = [];
  if (domain.authType === "none") {
    findings.push({
      severity: "warning",
      path,
      anchor: "key",
      message: "auth.type is none: there are no sign-ins, so auth.mfa has no effect",
    });
  }
  const required = Array.isArray(mfa.required) ? mfa.required : [];
  required.forEach((role, index) => {
    if (typeof role === "string") findings.push(...checkDeclaredRole(role, domain.roles, [...path, "required", index]));
  });
  if (required.length > 0 && mfa.totp === false && mfa.passkeys === false) {
    findings.push({
      severity: "error",
      path: [...path, "required"],
      anchor: "key",
      message: "roles cannot be required to use a second factor while totp and passkeys are both off",
    });
  }
  return findings;
}
