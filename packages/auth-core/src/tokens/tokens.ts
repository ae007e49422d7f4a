import { randomUUID } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";

/** The claims domain-auth puts in a token. */
export interface TokenClaims {
  /** The user's id. */
  readonly sub: string;
  readonly email: string;
  readonly role: string | null;
  /** The user's token version when the token was issued. */
  readonly ver: number;
  /** The session the token belongs to (CONTRACT 10). */
  readonly sid: string;
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
}

/** A freshly signed token. */
export interface IssuedToken {
  readonly token: string;
  readonly tokenType: "Bearer";
  /** Seconds: `exp − iat`. */
  readonly expiresIn: number;
}

export interface TokenServiceOptions {
  /** HMAC key: at least 32 bytes of UTF-8. */
  secret: string;
  /** `iss`: the domain's name. */
  issuer: string;
  /** Lifetime in seconds. @default 3600 */
  ttlSeconds?: number;
  /** Current time in milliseconds. @default Date.now */
  now?: () => number;
}

/** Issues and verifies HS256 tokens. */
export interface TokenService {
  issue(subject: { id: string; email: string; role: string | null; tokenVersion: number; sessionId: string }): Promise<IssuedToken>;
  /** The claims of a valid token, or `null` for any token that fails verification. */
  verify(token: string): Promise<TokenClaims | null>;
}

/** The shortest accepted secret, in UTF-8 bytes. */
export const MIN_SECRET_BYTES = 32;
const MAX_TOKEN_LENGTH = 8 * 1024;

function isClaims(payload: Record<string, unknown>): payload is Record<string, unknown> & TokenClaims {
  return (
    typeof payload.sub === "string" &&
    typeof payload.email === "string" &&
    (typeof payload.role === "string" || payload.role === null) &&
    Number.isSafeInteger(payload.ver) &&
    typeof payload.sid === "string" &&
    typeof payload.jti === "string" &&
    typeof payload.iat === "number" &&
    typeof payload.exp === "number"
  );
}

/**
 * Creates the token service: HS256 only, `iss` checked, no clock leeway on `exp`, and no token
 * whose lifetime (`exp − iat`) is longer than `ttlSeconds`.
 *
 * @example
 * const tokens = createTokenService({ secret, issuer: "blog" });
 */
export function createTokenService(options: TokenServiceOptions): TokenService {
  const secret = new TextEncoder().encode(options.secret);
  if (secret.byteLength < MIN_SECRET_BYTES) throw new Error(`the token secret must be at least ${MIN_SECRET_BYTES} bytes`);
  const key = crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const ttl = options.ttlSeconds ?? 3600;
  const now = options.now ?? Date.now;

  return {
    async issue(subject) {
      const iat = Math.floor(now() / 1000);
      const token = await new SignJWT({ email: subject.email, role: subject.role, ver: subject.tokenVersion, sid: subject.sessionId })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(subject.id)
        .setIssuer(options.issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .setJti(randomUUID())
        .sign(await key);
      return { token, tokenType: "Bearer", expiresIn: ttl };
    },
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) return null;
      try {
        const { payload, protectedHeader } = await jwtVerify(token, await key, {
          algorithms: ["HS256"],
          issuer: options.issuer,
          requiredClaims: ["sub", "iat", "exp", "jti"],
          currentDate: new Date(now()),
        });
        if (protectedHeader.crit !== undefined) return null;
        if (!isClaims(payload) || payload.iat > Math.floor(now() / 1000) + 60) return null;
        // Never longer-lived than this instance issues: a forged long token, or one from before the TTL was lowered.
        return payload.exp - payload.iat <= ttl ? payload : null;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}
