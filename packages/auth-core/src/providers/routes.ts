import { defineOperation } from "../endpoints/operation.js";
import { json } from "../http/responses.js";
import { type ProviderSummary, providerSummaries } from "./provider-view.js";

/** `GET /api/<auth>/providers`: the providers people may sign in with, in declared order (none: an empty list). */
export const listProviders = defineOperation("listProviders", async ({ services }) => {
  const items: ProviderSummary[] = providerSummaries(services.auth.providers);
  return json(200, { items });
});
