import { z } from "zod";
import { type Transport, transportSchema } from "../../accounts/auth-body-schemas.js";
import { parseSignUpBody } from "../../accounts/create-user.js";
import type { AuthServices } from "../../context.js";
import { parseBody } from "../../http/parse.js";

/** `POST register`: the new user's fields, as the auth entity's create body without `role` (other unknown keys ignored). */
export function readSignUpBody(body: Record<string, unknown>, services: AuthServices): Record<string, unknown> {
  return parseSignUpBody(services, body);
}

/** The `transport` setup reads beside the new user's fields. */
const SETUP_TRANSPORT_SCHEMA = z.object({ transport: transportSchema });

/** `POST setup`, read: the new user's values, and the setup token and transport read beside them. */
export interface SetupBody {
  readonly values: Record<string, unknown>;
  readonly transport: Transport | undefined;
  /** As sent; compared with the server's only after the other checks. */
  readonly setupToken: unknown;
}

/**
 * `POST setup`: the sign-up fields, with `setupToken` (when the server has one) and `transport` read
 * beside them, never as fields of the new user even when the auth entity declares one of that name.
 */
export function readSetupBody(body: Record<string, unknown>, services: AuthServices): SetupBody {
  const { transport: requested, ...signUp } = body;
  const { setupToken, ...fields } = signUp;
  const values = parseSignUpBody(services, services.setupToken ? fields : signUp);
  const { transport } = parseBody(SETUP_TRANSPORT_SCHEMA, { transport: requested });
  return { values, transport, setupToken };
}
