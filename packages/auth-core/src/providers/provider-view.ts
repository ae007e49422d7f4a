import { z } from "zod";
import type { ProviderModel } from "../config/index.js";
import { PROVIDER_TYPES } from "../config/providers.js";
import type { IdentityRow } from "./identity-store.js";

/** A provider as `GET providers` lists it (docs/providers.md): what a sign-in button needs. The OpenAPI document shows this schema. */
export const providerSummarySchema = z.object({
  id: z.string().describe("Its id: `GET oauth/<id>` starts a sign-in with it."),
  name: z.string().describe("Its name, for a button: Continue with <name>."),
  type: z.enum(PROVIDER_TYPES),
});

/** A provider people may sign in with, as pages show it. */
export type ProviderSummary = z.output<typeof providerSummarySchema>;

/** The answer of `GET providers`: every provider, in the order `domain.yaml` declares them. */
export const providerListSchema = z.object({ items: z.array(providerSummarySchema) });

/** The providers of a domain, as `GET providers` answers them. */
export function providerSummaries(providers: readonly ProviderModel[]): ProviderSummary[] {
  return providers.map(({ id, name, type }) => ({ id, name, type }));
}

/** An account at a provider linked to its user, as `GET identities` lists it: never a token of the provider. The OpenAPI document shows this schema. */
export const identityViewSchema = z.object({
  id: z.string().describe("Its id: `DELETE identities/<id>` disconnects it."),
  provider: z.string().describe("The provider's id in `auth.providers`."),
  email: z.string().nullable().describe("The e-mail the provider gave when it was connected."),
  createdAt: z.string().meta({ format: "date-time" }),
});

/** An account at a provider, as its owner sees it. */
export type IdentityView = z.output<typeof identityViewSchema>;

/** The answer of `GET identities`. */
export const identityListSchema = z.object({ items: z.array(identityViewSchema) });

/** The answer of `POST identities/<provider>`: where the page navigates to connect the account. */
export const linkStartedSchema = z.object({ url: z.string().describe("The provider's sign-in page: navigate to it.") });

/** Where a page goes to connect an account. */
export type LinkStarted = z.output<typeof linkStartedSchema>;

/** An identity's row as its owner sees it. */
export function identityView(row: IdentityRow): IdentityView {
  return { id: row.id, provider: row.provider, email: row.email, createdAt: new Date(row.createdAt).toISOString() };
}
