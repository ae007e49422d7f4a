import { randomUUID } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Kysely } from "kysely";
import type { ApiRequest } from "../http/api-request.js";
import type { AnyDB } from "../store/database.js";
import { writeTransaction } from "../store/transaction.js";
import type { ChallengePurpose, PasskeyRow, PasskeyStore } from "./passkey-store.js";
import { type PasskeySummary, summaryOf } from "./passkey-view.js";
import { type RelyingParty, relyingPartyOf } from "./relying-party.js";
import type { Within } from "./second-factors.js";
import { hashSecret } from "./secrets.js";

/** How long a WebAuthn challenge can be answered: 2 minutes, twice the browser's own prompt. */
export const CHALLENGE_TTL_MS = 120_000;
/** How long the browser offers its passkey prompt. */
const CEREMONY_TIMEOUT_MS = 60_000;

/** A verified use of a passkey, to be recorded with what it completes. */
export interface PasskeyUse {
  readonly passkey: PasskeyRow;
  readonly newCounter: number;
}

/** Who a sign-in's challenge was handed out to: anyone (a discoverable credential), or one user's second step. */
export type SignInCeremony = { readonly purpose: "sign-in" } | { readonly purpose: "second-step"; readonly userId: string };

/** The user a passkey is made for. */
export interface PasskeyOwner {
  readonly id: string;
  readonly email: string;
}

/**
 * Passkeys (docs/mfa.md) with @simplewebauthn/server: registration and sign-in options, each with
 * a challenge stored by its hash and spent once, within {@link CHALLENGE_TTL_MS}; user
 * verification required; the relying party from `APP_URL` (a request's own origin without it).
 */
export class Passkeys {
  constructor(
    readonly store: PasskeyStore,
    /** The service's name, as the browser's prompt shows it. */
    private readonly rpName: string,
    private readonly appUrl: string | undefined,
    readonly now: () => number,
  ) {}

  /** The relying party of a request; `null` when it has no host to be one. */
  relyingParty(request: ApiRequest): RelyingParty | null {
    return relyingPartyOf(this.appUrl, request);
  }

  private async remember(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
    const now = this.now();
    await this.store.insertChallenge({ challengeHash: hashSecret(challenge), purpose, userId, expiresAt: now + CHALLENGE_TTL_MS }, now);
  }

  /** The options of a new passkey for `user`: a discoverable credential, user verification required, none of theirs twice. */
  async registrationOptions(user: PasskeyOwner, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.store.listOf(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.rpName,
      rpID: rp.id,
      userName: user.email,
      userID: new TextEncoder().encode(user.id),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: "none",
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: [...passkey.transports] })),
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
    });
    await this.remember(options.challenge, "registration", user.id);
    return options;
  }

  /**
   * Verifies a registration against a live challenge of `user`'s (spent here, whatever the outcome)
   * and stores the passkey with `within` in one transaction: `refused` when it does not verify,
   * `taken` when its credential is registered already.
   */
  async register(
    user: PasskeyOwner,
    response: RegistrationResponseJSON,
    rp: RelyingParty,
    name: string,
    within: (trx: Kysely<AnyDB>, row: PasskeyRow) => Promise<void>,
  ): Promise<PasskeyRow | "refused" | "taken"> {
    if (rp.origin === null) return "refused";
    const spend = this.challengeSpender("registration", user.id);
    const verification = await spend.settle(() =>
      verifyRegistrationResponse({
        response,
        expectedChallenge: spend.check,
        expectedOrigin: rp.origin as string,
        expectedRPID: rp.id,
        requireUserVerification: true,
      }),
    );
    if (!verification?.verified) return "refused";
    const { credential } = verification.registrationInfo;
    const now = this.now();
    const row: PasskeyRow = {
      id: randomUUID(),
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
      createdAt: now,
      lastUsedAt: null,
    };
    const stored = await writeTransaction(this.store.database, async (trx) => {
      if (!(await this.store.insert(trx, row))) return false;
      await within(trx, row);
      return true;
    });
    return stored ? row : "taken";
  }

  /** The options of a sign-in: any discoverable passkey, or (a second step) one of `userId`'s. */
  async signInOptions(ceremony: SignInCeremony, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const allowed = ceremony.purpose === "second-step" ? await this.store.listOf(ceremony.userId) : [];
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: CEREMONY_TIMEOUT_MS,
      userVerification: "required",
      allowCredentials: allowed.map((passkey) => ({ id: passkey.credentialId, transports: [...passkey.transports] })),
    });
    await this.remember(options.challenge, ceremony.purpose, ceremony.purpose === "second-step" ? ceremony.userId : null);
    return options;
  }

  /** The stored passkey an authentication response names; for a second step, only one of that user's. */
  async passkeyOf(response: AuthenticationResponseJSON, ceremony: SignInCeremony): Promise<PasskeyRow | undefined> {
    const passkey = await this.store.findByCredential(response.id);
    if (ceremony.purpose === "second-step" && passkey?.userId !== ceremony.userId) return undefined;
    return passkey;
  }

  /**
   * Verifies a sign-in with `passkey` against a live challenge of the ceremony (spent here, whatever
   * the outcome): the signature, the origin, user verification, a counter that moved on. `null`
   * when it does not verify.
   */
  async verifySignIn(response: AuthenticationResponseJSON, passkey: PasskeyRow, ceremony: SignInCeremony, rp: RelyingParty) {
    if (rp.origin === null) return null;
    if (!userHandleMatches(response, passkey.userId)) return null;
    const spend = this.challengeSpender(ceremony.purpose, ceremony.purpose === "second-step" ? ceremony.userId : null);
    const verification = await spend.settle(() =>
      verifyAuthenticationResponse({
        response,
        expectedChallenge: spend.check,
        expectedOrigin: rp.origin as string,
        expectedRPID: rp.id,
        requireUserVerification: true,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, "base64url"),
          counter: passkey.counter,
          transports: [...passkey.transports],
        },
      }),
    );
    if (!verification?.verified) return null;
    return { passkey, newCounter: verification.authenticationInfo.newCounter } satisfies PasskeyUse;
  }

  /**
   * A challenge check for the library: spends the challenge it is asked about. A response the
   * library refuses (malformed, wrong signature) settles as `null`; a failure of the database is
   * thrown, never mistaken for a refusal.
   */
  private challengeSpender(purpose: ChallengePurpose, userId: string | null) {
    const failed: { error?: unknown } = {};
    const check = async (challenge: string) => {
      // The client's data is the caller's: its challenge may be anything JSON holds.
      if (typeof challenge !== "string" || challenge.length > 1024) return false;
      try {
        return await this.store.spendChallenge(hashSecret(challenge), purpose, userId, this.now());
      } catch (error) {
        failed.error = error ?? new Error("The challenge could not be spent");
        return false;
      }
    };
    const settle = async <T>(verify: () => Promise<T>): Promise<T | null> => {
      const result = await verify().catch(() => null);
      if ("error" in failed) throw failed.error;
      return result;
    };
    return { check, settle };
  }

  /**
   * Records a verified use (its counter, the time) with `alsoNeeds` in one transaction: `false`,
   * nothing written, when `alsoNeeds` refuses or another use of the passkey came first.
   */
  recordUse(use: PasskeyUse, alsoNeeds: (trx: Kysely<AnyDB>) => Promise<boolean> = async () => true): Promise<boolean> {
    const now = this.now();
    return writeTransaction(this.store.database, async (trx) => {
      if (!(await alsoNeeds(trx))) return false;
      if (!(await this.store.recordUse(trx, use.passkey.id, use.passkey.counter, use.newCounter, now))) {
        throw new Refused();
      }
      return true;
    }).catch((error: unknown) => {
      if (error instanceof Refused) return false;
      throw error;
    });
  }

  /** The user's passkeys, oldest first. */
  async listOf(userId: string): Promise<PasskeySummary[]> {
    return (await this.store.listOf(userId)).map(summaryOf);
  }

  /** Removes a passkey of the user with `within`; `false` when they have none of that id. */
  remove(userId: string, id: string, within: Within, before?: Within): Promise<boolean> {
    return writeTransaction(this.store.database, async (trx) => {
      await before?.(trx);
      if (!(await this.store.remove(trx, userId, id))) return false;
      await within(trx);
      return true;
    });
  }
}

/** Rolls back a use that lost to another one. */
class Refused extends Error {}

/** A discoverable credential names its user: it must be the passkey's owner (a response without one is judged by its credential). */
function userHandleMatches(response: AuthenticationResponseJSON, userId: string): boolean {
  const handle = response.response.userHandle;
  if (handle === undefined || handle === null || handle === "") return true;
  return Buffer.from(handle, "base64url").toString("utf8") === userId;
}
