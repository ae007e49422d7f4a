import { z } from "zod";
import type { OrganizationsModel } from "../../config/index.js";
import { MAX_ORGANIZATION_NAME_LENGTH, SLUG_PATTERN } from "../../policy/organizations.js";
import { emailProblem, normalizeEmail } from "../../records/email.js";

const name = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "is required")
  .max(MAX_ORGANIZATION_NAME_LENGTH, `must be at most ${MAX_ORGANIZATION_NAME_LENGTH} characters`)
  .refine((value) => !/[\p{Cc}\p{Cf}]/u.test(value), "must not hold control or invisible characters")
  .describe("Its name, as pages show it.");
const slug = z
  .string({ error: "must be a string" })
  .regex(SLUG_PATTERN, "must be 2 to 39 lower-case letters, digits or dashes, starting with a letter or digit")
  .describe("Unique; derived from `name` when absent.");

/** `POST orgs`: `{ name, slug? }`. */
export const createOrganizationBodySchema = z.strictObject({ name, slug: slug.optional() });

/** `PATCH orgs/<id>`: `{ name?, slug? }`; an empty one changes nothing. */
export const updateOrganizationBodySchema = z.strictObject({ name: name.optional(), slug: slug.optional() });

/** An organization role of the domain's. */
function roleOf(organizations: OrganizationsModel | null) {
  const roles = organizations?.roles ?? [];
  return roles.length > 0
    ? z.enum(roles as [string, ...string[]], { error: `must be one of ${roles.join(", ")}` }).describe("An organization role.")
    : z.string().describe("An organization role.");
}

/** `PATCH orgs/<id>/members/<userId>`: `{ role }`. */
export function memberRoleBodySchema(organizations: OrganizationsModel | null) {
  return z.strictObject({ role: roleOf(organizations) });
}

/** `POST orgs/<id>/invitations`: `{ email, role }`, the e-mail normalized as accounts are. */
export function invitationBodySchema(organizations: OrganizationsModel | null) {
  return z.strictObject({
    email: z
      .string({ error: "must be a string" })
      .transform(normalizeEmail)
      .superRefine((email, context) => {
        const problem = emailProblem(email);
        if (problem) context.addIssue({ code: "custom", message: problem });
      })
      .describe("Who is invited: the link only works for the account with this e-mail."),
    role: roleOf(organizations),
  });
}

/** `POST orgs/invitations/accept`: `{ token }` from the invitation's link. */
export const acceptInvitationBodySchema = z.strictObject({
  token: z.string({ error: "must be a string" }).min(1, "is required").max(200, "is not an invitation token"),
});
