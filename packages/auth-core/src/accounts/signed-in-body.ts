import type { AuthServices } from "../context.js";
import { serializeRecord } from "../records/serialize.js";
import type { StoredRecord } from "../store/rows.js";

/** The body of a response that signs a user in. */
export async function signedInBody(services: AuthServices, user: StoredRecord): Promise<Record<string, unknown>> {
  const issued = await services.tokens.issue({
    id: user.id,
    email: user.email as string,
    role: (user.role as string | null) ?? null,
    tokenVersion: Number(user.tokenVersion),
  });
  return { ...issued, user: serializeRecord(services.auth.entity, user) };
}
