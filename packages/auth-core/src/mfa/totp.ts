import { Secret, TOTP } from "otpauth";

/** The TOTP every authenticator app understands (RFC 6238): HMAC-SHA-1, 6 digits, 30-second steps. */
export const TOTP_PARAMETERS = { algorithm: "SHA1", digits: 6, period: 30 } as const;

/** Steps either side of the current one whose codes are still accepted (clocks drift, people type slowly). */
const WINDOW = 1;
/** Bytes of a new secret: 160 bits, the HMAC-SHA-1 key length RFC 4226 recommends. */
const SECRET_BYTES = 20;

/** A new random TOTP secret, base32 (what authenticator apps are given). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The time step a moment falls in (seconds since the epoch over 30). */
export function totpStepAt(timestamp: number): number {
  return TOTP.counter({ period: TOTP_PARAMETERS.period, timestamp });
}

/** The code of a base32 secret at a moment (ms since the epoch). */
export function totpCodeAt(secret: string, timestamp: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), ...TOTP_PARAMETERS, timestamp });
}

/**
 * The time step whose code `code` is, looking one step either side of `timestamp`: `null` when it
 * is none of them. The caller accepts a step once (a code replayed in its window is refused).
 */
export function matchTotpStep(secret: string, code: string, timestamp: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), ...TOTP_PARAMETERS, timestamp, window: WINDOW });
  return delta === null ? null : totpStepAt(timestamp) + delta;
}

/**
 * The `otpauth://totp/…` URI an authenticator app reads (from the QR code, or typed in): the
 * service's name as issuer, the user's email as the account.
 */
export function otpauthUrl(secret: string, labels: { readonly issuer: string; readonly account: string }): string {
  return new TOTP({ issuer: labels.issuer, label: labels.account, secret: Secret.fromBase32(secret), ...TOTP_PARAMETERS }).toString();
}
