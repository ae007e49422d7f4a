import { z } from "zod";
import type { ApiKeyRow } from "./api-key-store.js";

/** An instant as answers write it: ISO 8601, UTC. */
const dateTime = z.string().meta({ format: "date-time" });

/** An API key as `GET api-keys` lists it (docs/api-keys.md): never the key or its hash. The OpenAPI document shows this schema. */
export const apiKeyViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z
      .array(z.string())
      .nullable()
      .describe("The entity operations it may perform (`<entity segment>:<operation>`); `null`: all its user may perform."),
    createdAt: dateTime,
    expiresAt: dateTime.nullable().describe("When it stops working; `null`: never."),
    lastUsedAt: dateTime.nullable().describe("Its last use, to the minute; `null`: never used."),
  })
  .describe("An API key: never the key itself.");

/** An API key as its owner and the setup role see it. */
export type ApiKeyView = z.output<typeof apiKeyViewSchema>;

/** The answer of `POST api-keys`: the new key, with `key`, shown only there. */
export const createdApiKeySchema = apiKeyViewSchema
  .omit({ lastUsedAt: true })
  .extend({
    key: z.string().describe("The key: send it as `Authorization: Bearer <key>`. Shown only in this answer; the server keeps its SHA-256."),
  })
  .describe("The new key: `key` is shown only here.");

/** A new key, as the answer that creates it holds it. */
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;

/** A key as its owner and the setup role see it: never the key or its hash. Times ISO 8601. */
export function apiKeyView(row: ApiKeyRow): ApiKeyView {
  const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes === null ? null : [...row.scopes],
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
  };
}
