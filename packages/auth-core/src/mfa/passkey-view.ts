import { z } from "zod";
import type { PasskeyRow } from "./passkey-store.js";

/** An instant as answers write it: ISO 8601, UTC. */
const dateTime = z.string().meta({ format: "date-time" });

/** A passkey as `GET passkeys` lists it (docs/mfa.md): never its public key. The OpenAPI document shows this schema. */
export const passkeySummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: dateTime,
    lastUsedAt: dateTime.nullable(),
  })
  .describe("A passkey of yours: its public key is never answered.");

/** A passkey as its owner sees it: never its key. */
export type PasskeySummary = z.output<typeof passkeySummarySchema>;

/** A passkey just added, as `POST passkeys` answers it: never used yet. */
export const addedPasskeySchema = passkeySummarySchema.omit({ lastUsedAt: true });

/** A passkey just added. */
export type AddedPasskey = z.output<typeof addedPasskeySchema>;

/** A passkey's row as its owner sees it. */
export function summaryOf(row: PasskeyRow): PasskeySummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
  };
}
