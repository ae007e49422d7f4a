import { createHash, randomBytes } from "node:crypto";

/** Random bytes in a refresh token: 256 bits. */
const REFRESH_TOKEN_BYTES = 32;

/** A new session id: 128 random bits, base64url. */
export function newSessionId(): string {
  return randomBytes(16).toString("base64url");
}

/** A new opaque refresh token: 32 random bytes, base64url. Only its {@link hashRefreshToken} is stored. */
export function newRefreshToken(): string {
  return randomBytes(REFRESH_TOKEN_BYTES).toString("base64url");
}

/** The SHA-256 of a refresh token, base64url: what the sessions table holds and is searched by. */
export function hashRefreshToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("base64url");
}
