import { z } from "zod";

/** A pending TOTP secret as `POST mfa/totp` answers it (docs/mfa.md): the only time it leaves the server. The OpenAPI document shows this schema. */
export const totpEnrolmentSchema = z.object({
  secret: z.string().describe("The secret, base32: for typing into the app."),
  otpauthUrl: z.string().describe("The `otpauth://totp/…` URI apps read."),
  qrSvg: z.string().describe("A QR code of `otpauthUrl`, an SVG document drawn by the server."),
});

/** A pending TOTP secret, as the user's authenticator app takes it. */
export type TotpEnrolment = z.output<typeof totpEnrolmentSchema>;

/** Ten single-use recovery codes, as the answers that show them hold them (once). */
export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).describe("Ten single-use codes that stand in for a code of the app; shown only in this answer."),
});

/** The answer of `POST mfa/recovery-codes`, and the part of `POST mfa/totp/confirm`'s that holds the codes. */
export type RecoveryCodesAnswer = z.output<typeof recoveryCodesSchema>;

/** Whether a user's two-step verification is on, as `GET mfa/totp` answers it (docs/mfa.md): never the secret nor a code. The OpenAPI document shows this schema. */
export const totpStatusSchema = z.object({
  enabled: z.boolean().describe("TOTP is on: a sign-in asks for a code. A secret pending confirmation is not."),
  recoveryCodesLeft: z.number().int().nonnegative().describe("Unused recovery codes; 0 while TOTP is off."),
});

/** The answer of `GET mfa/totp`. */
export type TotpStatus = z.output<typeof totpStatusSchema>;
