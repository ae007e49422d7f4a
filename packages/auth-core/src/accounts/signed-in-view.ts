import { z } from "zod";

/** A session's tokens as an answer that signs in carries them (docs/api.md#login). */
export const sessionTokensSchema = z.object({
  token: z.string().describe("The access token: send it as `Authorization: Bearer <token>`."),
  tokenType: z.literal("Bearer"),
  expiresIn: z.int().describe("Seconds until the access token expires."),
  refreshToken: z.string().describe("Spend it at `refresh` for a new pair."),
  refreshExpiresIn: z.int().describe("Seconds until the refresh token expires."),
});

/** A session's tokens: the access token and its refresh token. */
export type SessionTokens = z.output<typeof sessionTokensSchema>;

/** The token fields a sign-in with `"transport": "cookie"` leaves out of its answer (they go into cookies). */
export const COOKIE_TRANSPORT_OMITS = ["token", "tokenType", "refreshToken"] as const;

/**
 * The answer that signs in (login, setup, refresh…): the tokens and the user's record, as `me`
 * answers it (the OpenAPI document refers to the domain's record schema for `user`).
 */
export const signedInSchema = sessionTokensSchema
  .extend({ user: z.record(z.string(), z.unknown()).describe("The user's record, as `me` answers it.") })
  .partial({ ...Object.fromEntries(COOKIE_TRANSPORT_OMITS.map((key) => [key, true] as const)), refreshExpiresIn: true })
  .describe(
    'The session\'s tokens and the profile. With `"transport": "cookie"`, `token`, `tokenType` and `refreshToken` are set as HttpOnly cookies instead; `refreshExpiresIn` is absent without a `refresh` endpoint.',
  );

/** The answer that signs in with the tokens in its body. */
export type SignedIn = SessionTokens & { readonly user: Record<string, unknown> };
