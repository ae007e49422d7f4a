import { z } from "zod";
import type { ProviderModel } from "../config/index.js";
import { PROVIDER_TYPES } from "../config/providers.js";

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
