import { randomUUID } from "node:crypto";
import { createSigner, createVerifier, TokenError } from "fast-jwt";

/** The claims domain-auth puts in a token. */
export interface TokenClaims {
  /** The user's id. */
  readonly sub: string;
  readonly email: string;
  readonly role: string | null;
  /** The user's token version when the token was issued. */
  readonly ver: number;
  /** The session the token belongs to (docs/api.md#sessions). */
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
 * whose lifetime (`exp − iat`) is longer than `ttlSeconds`. The HMAC key is made once per
 * instance and tokens are signed and checked synchronously with node:crypto (fast-jwt), so a
 * check costs a few microseconds and no trip to the thread pool.
 *
 * @example
 * const tokens = createTokenService({ secret, issuer: "blog" });
 */
export function createTokenService(options: TokenServiceOptions): TokenService {
  const secret = Buffer.from(options.secret, "utf8");
  if (secret.byteLength < MIN_SECRET_BYTES) throw new Error(`the token secret must be at least ${MIN_SECRET_BYTES} bytes`);
  const ttl = options.ttlSeconds ?? 3600;
  const now = options.now ?? Date.now;
  // Every claim, `iat` included, comes from `issue` (the signer keeps a given `iat`).
  const sign = createSigner({ key: secret, algorithm: "HS256" });
  // `exp` is checked below against this instance's clock (`now`, which tests move); the library
  // pins the algorithm, checks the signature, `iss`, the claims' presence and refuses any `crit`.
  const check = createVerifier({
    key: secret,
    algorithms: ["HS256"],
    allowedIss: options.issuer,
    requiredClaims: ["iss", "sub", "iat", "exp", "jti"],
    ignoreExpiration: true,
    complete: true,
    cache: false,
  });

  return {
    async issue(subject) {
      const iat = Math.floor(now() / 1000);
      const token = sign({
        email: subject.email,
        role: subject.role,
        ver: subject.tokenVersion,
        sid: subject.sessionId,
        sub: subject.id,
        iss: options.issuer,
        iat,
        exp: iat + ttl,
        jti: randomUUID(),
      });
      return { token, tokenType: "Bearer", expiresIn: ttl };
    },
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) return null;
      let decoded: { header: Record<string, unknown>; payload: Record<string, unknown> };
      try {
        decoded = check(token);
      } catch (error) {
        if (error instanceof TokenError) return null;
        throw error;
      }
      const { header, payload } = decoded;
      if (header.alg !== "HS256" || header.crit !== undefined) return null;
      if (payload === null || typeof payload !== "object" || !isClaims(payload)) return null;
      const nowSeconds = Math.floor(now() / 1000);
      // No leeway: a token is dead from its `exp` second on.
      if (payload.exp <= nowSeconds || payload.iat > nowSeconds + 60) return null;
      // Never longer-lived than this instance issues: a forged long token, or one from before the TTL was lowered.
      return payload.exp - payload.iat <= ttl ? payload : null;
    },
  };
}
