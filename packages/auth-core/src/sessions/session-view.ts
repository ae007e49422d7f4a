import { z } from "zod";
import type { SessionRow } from "./session-store.js";

/** An instant as answers write it: ISO 8601, UTC. */
const dateTime = z.string().meta({ format: "date-time" });

/** A session as `GET sessions` lists it (docs/api.md#sessions): never a token. The OpenAPI document shows this schema. */
export const sessionViewSchema = z.object({
  id: z.string(),
  createdAt: dateTime,
  refreshedAt: dateTime,
  expiresAt: dateTime,
  userAgent: z.string().nullable(),
  current: z.boolean().describe("The session of the token that asked."),
});

/** One of a user's signed-in sessions, as its owner sees it. */
export type SessionView = z.output<typeof sessionViewSchema>;

/** A session as its owner sees it; `current` marks the one whose id is `currentId`. */
export function sessionView(session: SessionRow, currentId: string): SessionView {
  return {
    id: session.id,
    createdAt: new Date(session.createdAt).toISOString(),
    refreshedAt: new Date(session.refreshedAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
    userAgent: session.userAgent,
    current: session.id === currentId,
  };
}
