import { z } from "zod";

/** An organization as its members see it (docs/organizations.md). The OpenAPI document shows this schema. */
export const organizationSchema = z.object({
  id: z.string().describe("Its id: `/api/orgs/<id>/…`."),
  name: z.string(),
  slug: z.string().describe("Unique: `^[a-z0-9][a-z0-9-]{1,38}$`."),
  createdAt: z.string().meta({ format: "date-time" }),
});

/** An organization. */
export type Organization = z.output<typeof organizationSchema>;

/** An organization's row as its members see it. */
export function organizationView(row: {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly createdAt: string;
}): Organization {
  return { id: row.id, name: row.name, slug: row.slug, createdAt: new Date(row.createdAt).toISOString() };
}

/** An organization role, or `null` for the setup role's support access to an organization it is not in. */
const roleSchema = z.string().nullable().describe("The caller's organization role (`null`: the setup role, not a member).");

/** The answer of `POST orgs`, `GET orgs/<id>` and `POST orgs/invitations/accept`: the organization and the caller's role in it. */
export const membershipAnswerSchema = z.object({ organization: organizationSchema, role: roleSchema });

/** An organization with the caller's role in it. */
export type MembershipAnswer = z.output<typeof membershipAnswerSchema>;

/** The answer of `PATCH orgs/<id>`. */
export const organizationAnswerSchema = z.object({ organization: organizationSchema });

/** One of the caller's organizations, as `GET orgs` lists it. */
export const organizationSummarySchema = z.object({ id: z.string(), name: z.string(), slug: z.string(), role: z.string() });

/** One of the caller's organizations. */
export type OrganizationSummary = z.output<typeof organizationSummarySchema>;

/** The answer of `GET orgs`: the caller's organizations, oldest membership first. */
export const organizationListSchema = z.object({ items: z.array(organizationSummarySchema) });

/** A member as the organization's members see them. */
export const memberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.string(),
  joinedAt: z.string().meta({ format: "date-time" }),
});

/** A member of an organization. */
export type Member = z.output<typeof memberSchema>;

/** The answer of `GET orgs/<id>/members`: a page, oldest member first. */
export const memberPageSchema = z.object({
  items: z.array(memberSchema),
  nextCursor: z.string().nullable().describe("`after` for the next page; `null` on the last."),
});

/** The answer of `PATCH orgs/<id>/members/<userId>`. */
export const memberAnswerSchema = z.object({ member: memberSchema });

/** A pending invitation, as the organization's managers see it: never its token. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  expiresAt: z.string().meta({ format: "date-time" }),
});

/** A pending invitation. */
export type Invitation = z.output<typeof invitationSchema>;

/** The answer of `GET orgs/<id>/invitations`: newest first. */
export const invitationListSchema = z.object({ items: z.array(invitationSchema) });
