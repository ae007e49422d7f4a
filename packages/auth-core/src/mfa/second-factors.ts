import type { Kysely } from "kysely";
import { MFA_TOKEN_TTL_SECONDS, type SecondFactorMethod } from "../policy/second-factor.js";
import type { AnyDB } from "../store/database.js";
import { writeTransaction } from "../store/transaction.js";
import { qrCodeSvg } from "./qr-code.js";
import type { MfaTokenKind, MfaTokenRow, SecondFactorStore, TotpRow } from "./second-factor-store.js";
import type { SecretBox } from "./secret-box.js";
import { hashSecret, MFA_TOKEN_PREFIX, newMfaToken, newRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from "./secrets.js";
import { matchTotpStep, newTotpSecret, otpauthUrl } from "./totp.js";
import type { TotpEnrolment, TotpStatus } from "./totp-view.js";

/** A pending TOTP secret can be confirmed this long after its enrolment started; then it must be started again. */
export const PENDING_TOTP_TTL_SECONDS = 600;
/**
 * How long `POST mfa/totp` answers the same pending secret again: 5 minutes, time enough to scan it
 * and type a code, and each answer leaves at least as long to confirm it; a later start makes a new one.
 */
export const PENDING_TOTP_REUSE_SECONDS = 300;
/** The longest mfa token worth hashing and looking up; ours are 47 characters. */
const MAX_MFA_TOKEN_LENGTH = 128;

export type { TotpEnrolment } from "./totp-view.js";

/** The second factor a sign-in presents: a TOTP code, or a recovery code. */
export type SecondFactorProof = { readonly code: string } | { readonly recoveryCode: string };

/** How a presented second factor ended: accepted (the mfa token spent with it), wrong, or its mfa token already spent. */
export type SignInOutcome = "accepted" | "wrong-code" | "token-spent";

/** How confirming a pending TOTP secret ended. */
export type ConfirmOutcome =
  | { readonly confirmed: true; readonly recoveryCodes: readonly string[] }
  | { readonly confirmed: false; readonly reason: "not-pending" | "wrong-code" };

/** Work that must commit with a change of factors, in its transaction (sessions revoked, an enrolment token spent). */
export type Within = (trx: Kysely<AnyDB>) => Promise<void>;

/** Thrown inside a transaction to roll it back with an outcome. */
class Refused extends Error {
  constructor(readonly outcome: SignInOutcome) {
    super(outcome);
  }
}

/**
 * A user's second factors (docs/mfa.md): TOTP enrolment, confirmation and removal, recovery codes,
 * the mfa tokens between a password and a second factor, and the second step of a sign-in.
 */
export class SecondFactors {
  constructor(
    readonly store: SecondFactorStore,
    private readonly box: SecretBox,
    /** The service's name: the issuer authenticator apps show. */
    private readonly issuer: string,
    readonly now: () => number,
  ) {}

  /** The methods that finish a sign-in of this user: none until TOTP is confirmed. */
  async methodsOf(userId: string): Promise<SecondFactorMethod[]> {
    const totp = await this.store.findTotp(userId);
    return totp?.confirmedAt != null ? ["totp", "recovery"] : [];
  }

  /** Whether the user's TOTP is on, and how many unused recovery codes they have left (none while it is off). */
  async statusOf(userId: string): Promise<TotpStatus> {
    const enabled = (await this.methodsOf(userId)).length > 0;
    return { enabled, recoveryCodesLeft: enabled ? await this.store.countUnusedRecoveryCodes(userId) : 0 };
  }

  /** A new mfa token of `kind` for a user as they are now, alive {@link MFA_TOKEN_TTL_SECONDS}; only its hash is stored. */
  async issueToken(user: { readonly id: string; readonly tokenVersion: number }, kind: MfaTokenKind): Promise<string> {
    const token = newMfaToken();
    const now = this.now();
    const expiresAt = now + MFA_TOKEN_TTL_SECONDS * 1000;
    await this.store.insertToken({ tokenHash: hashSecret(token), userId: user.id, kind, expiresAt, tokenVersion: user.tokenVersion }, now);
    return token;
  }

  /**
   * The live mfa token of `kind` that `token` is, with its user as they are now; `undefined` when
   * either is gone, or when the user's password, e-mail or role changed (their token version moved)
   * since it was issued: a single-use token dies with the account's state it was issued for.
   */
  async findTokenOf<User extends { readonly tokenVersion: number }>(
    token: string,
    kind: MfaTokenKind,
    findUser: (id: string) => Promise<User | undefined>,
  ): Promise<{ readonly token: MfaTokenRow; readonly user: User } | undefined> {
    const row = await this.findToken(token, kind);
    const user = row && (await findUser(row.userId));
    if (!row || !user || row.tokenVersion !== user.tokenVersion) return undefined;
    return { token: row, user };
  }

  /** The live mfa token of `kind` that `token` is, or `undefined`. */
  async findToken(token: string, kind: MfaTokenKind): Promise<MfaTokenRow | undefined> {
    if (!token.startsWith(MFA_TOKEN_PREFIX) || token.length > MAX_MFA_TOKEN_LENGTH) return undefined;
    return this.store.findToken(hashSecret(token), kind, this.now());
  }

  /**
   * The user's pending TOTP secret: the one started within {@link PENDING_TOTP_REUSE_SECONDS}, else a
   * new one in its place; `null` when their TOTP is on already. Starting twice (a page's effect run
   * twice, a double click, two tabs) answers the same secret, so the one shown is the one a code is
   * checked against.
   */
  async startTotp(user: { readonly id: string; readonly email: string }): Promise<TotpEnrolment | null> {
    const now = this.now();
    const keepSince = now - PENDING_TOTP_REUSE_SECONDS * 1000;
    await this.store.savePending(user.id, this.box.seal(newTotpSecret(), user.id), now, keepSince);
    let row = await this.store.findTotp(user.id);
    if (!row || row.confirmedAt !== null) return null;
    let secret = this.box.open(row.sealed, row.userId);
    if (secret === null) {
      // Sealed under an instance secret since replaced: nobody can confirm it; start afresh.
      await this.store.savePending(user.id, this.box.seal(newTotpSecret(), user.id), now);
      row = await this.store.findTotp(user.id);
      if (!row || row.confirmedAt !== null) return null;
      secret = this.box.open(row.sealed, row.userId);
      if (secret === null) throw new Error("a TOTP secret sealed a moment ago cannot be opened");
    }
    const url = otpauthUrl(secret, { issuer: this.issuer, account: user.email });
    return { secret, otpauthUrl: url, qrSvg: qrCodeSvg(url) };
  }

  /** The time step of `code` for a TOTP row, or `null` (a wrong code, or a secret sealed under another instance secret). */
  private stepOf(row: TotpRow, code: string, now: number): number | null {
    const secret = this.box.open(row.sealed, row.userId);
    return secret === null ? null : matchTotpStep(secret, code, now);
  }

  /**
   * Turns TOTP on with a code of the pending secret (started at most {@link PENDING_TOTP_TTL_SECONDS}
   * ago, else `not-pending`): its step counts as used, a new set of recovery
   * codes replaces any other, and `within` commits with them.
   */
  async confirmTotp(userId: string, code: string, within: Within): Promise<ConfirmOutcome> {
    const now = this.now();
    const row = await this.store.findTotp(userId);
    // A secret left pending is no standing target: codes of it can be guessed only while it is fresh.
    const expired = row !== undefined && now - row.createdAt > PENDING_TOTP_TTL_SECONDS * 1000;
    if (!row || row.confirmedAt !== null || expired) return { confirmed: false, reason: "not-pending" };
    const step = this.stepOf(row, code, now);
    if (step === null) return { confirmed: false, reason: "wrong-code" };
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const confirmed = await writeTransaction(this.store.database, async (trx) => {
      if (!(await this.store.confirm(trx, userId, row.sealed, step, now))) return false;
      await this.store.replaceRecoveryCodes(trx, userId, recoveryCodes.map(hashOfRecoveryCode), now);
      await within(trx);
      return true;
    });
    // Replaced or confirmed by another request meanwhile.
    return confirmed ? { confirmed, recoveryCodes } : { confirmed: false, reason: "not-pending" };
  }

  /**
   * Turns TOTP off with a current code (accepted once, like any): the secret and the recovery codes
   * go, `within` commits with them. `false` for a wrong or used code, or TOTP that is not on.
   */
  async disableTotp(userId: string, code: string, within: Within): Promise<boolean> {
    const now = this.now();
    const row = await this.store.findTotp(userId);
    const step = row?.confirmedAt != null ? this.stepOf(row, code, now) : null;
    if (step === null) return false;
    return writeTransaction(this.store.database, async (trx) => {
      if (!(await this.store.acceptStep(trx, userId, step))) return false;
      await this.store.removeAll(trx, userId);
      await within(trx);
      return true;
    });
  }

  /** A new set of recovery codes in place of the old one; `null` when the user's TOTP is not on. */
  async regenerateRecoveryCodes(userId: string): Promise<string[] | null> {
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = this.now();
    return writeTransaction(this.store.database, async (trx) => {
      if (!(await this.store.isConfirmed(trx, userId))) return null;
      await this.store.replaceRecoveryCodes(trx, userId, recoveryCodes.map(hashOfRecoveryCode), now);
      return recoveryCodes;
    });
  }

  /**
   * The second step of a sign-in: a TOTP code (of a step after the last accepted) or an unused
   * recovery code. Accepted, the code and the mfa token are spent together; of simultaneous
   * attempts with one token, one is accepted.
   */
  async completeSignIn(challenge: MfaTokenRow, proof: SecondFactorProof): Promise<SignInOutcome> {
    const now = this.now();
    const { userId } = challenge;
    let consume: (trx: Kysely<AnyDB>) => Promise<boolean>;
    if ("code" in proof) {
      const row = await this.store.findTotp(userId);
      const step = row?.confirmedAt != null ? this.stepOf(row, proof.code, now) : null;
      if (step === null) return "wrong-code";
      consume = (trx) => this.store.acceptStep(trx, userId, step);
    } else {
      const code = normalizeRecoveryCode(proof.recoveryCode);
      if (code === null) return "wrong-code";
      consume = (trx) => this.store.spendRecoveryCode(trx, userId, hashSecret(code), now);
    }
    try {
      return await writeTransaction(this.store.database, async (trx) => {
        if (!(await this.store.spendToken(trx, challenge.tokenHash, now))) throw new Refused("token-spent");
        if (!(await consume(trx))) throw new Refused("wrong-code");
        return "accepted" as const;
      });
    } catch (error) {
      if (error instanceof Refused) return error.outcome;
      throw error;
    }
  }

  /** Removes every factor of a user (the admin command's reset); `within` commits with it. */
  async removeAll(userId: string, within: Within): Promise<void> {
    await writeTransaction(this.store.database, async (trx) => {
      await this.store.removeAll(trx, userId);
      await within(trx);
    });
  }
}

/** The hash a recovery code is stored by: of its normalized form. */
function hashOfRecoveryCode(code: string): string {
  return hashSecret(code.replaceAll("-", ""));
}
