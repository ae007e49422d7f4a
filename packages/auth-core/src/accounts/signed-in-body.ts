import type { AuthServices } from "../context.js";
import { serializeRecord } from "../records/serialize.js";
import type { StoredUser } from "../store/rows.js";

/** The body of a response that signs a user in. */
export async function signedInBody(services: AuthServices, user: StoredUser): Promise<Record<string, unknown>> {
  const issued = await services.tokens.issue({
    id: user.id,
    email: user.email,
    role: user.role,
    tokenVersion: user.tokenVersion,
  });
  return { ...issued, user: serializeRecord(services.auth.entity, user) };
}
