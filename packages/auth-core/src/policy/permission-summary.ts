import { type Operation, parseMemberToken } from "../config/vocabulary.js";
import type { AuthorizeOptions } from "./authorize.js";
import type { PolicyEntity } from "./subjects.js";

/** Who may perform an operation: the effective permission list and the same in words. */
export interface PermissionSummary {
  /** The list that decides (docs/api.md#permissions): an absent entry reads `@Authenticated`, an open domain `*`. */
  readonly permissions: readonly string[];
  /** The list in words, e.g. "Editor, Admin; the record's owner". */
  readonly sentence: string;
}

function ownerWords(entity: PolicyEntity, operation: Operation): string {
  if (entity.isAuthEntity) return "the user themself";
  if (operation === "create") return "any signed-in user, who becomes the record's owner";
  if (operation === "read") return "the record's owner (a list shows them only their own records)";
  return "the record's owner";
}

/**
 * Who may perform `operation` on `entity`, as {@link authorize} decides it: for documentation
 * (the OpenAPI document, pages), never for deciding.
 *
 * @example summarizePermission(post, "update").sentence // "Admin; the record's owner"
 */
export function summarizePermission(entity: PolicyEntity, operation: Operation, options: AuthorizeOptions = {}): PermissionSummary {
  const permissions = options.open ? ["*"] : (entity.permissions[operation] ?? ["@Authenticated"]);
  if (permissions.includes("*")) return { permissions, sentence: "anyone, signed in or not" };
  if (permissions.includes("@Authenticated")) return { permissions, sentence: "any signed-in user" };
  const roles = permissions.filter((token) => !token.startsWith("@"));
  const parts = roles.length > 0 ? [roles.join(", ")] : [];
  for (const token of permissions) {
    const member = entity.tenant ? parseMemberToken(token) : null;
    if (member) parts.push(member.roles ? `members holding ${member.roles.join(", ")}` : "members of the organization");
  }
  if (permissions.includes("@Owner")) parts.push(ownerWords(entity, operation));
  return { permissions, sentence: parts.length > 0 ? parts.join("; ") : "nobody" };
}
