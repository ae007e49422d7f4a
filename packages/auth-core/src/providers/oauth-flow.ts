import { createHmac, randomBytes } from "node:crypto";
import * as openid from "openid-client";
import { hashSecret } from "../mfa/secrets.js";
import type { FlowPurpose, FlowRow, IdentityStore } from "./identity-store.js";
import type { FlowChecks, ProviderClient } from "./provider-client.js";

/** How long a flow may take from its start to its callback: 10 minutes (docs/providers.md#the-flow). */
export const FLOW_TTL_SECONDS = 600;

/** A flow just started: where the browser goes, and the secret its flow cookie keeps. */
export interface StartedFlow {
  readonly url: URL;
  /** The flow cookie's value: 32 random bytes that bind the flow to this browser. */
  readonly binding: string;
}

/** A flow spent at its callback, with the checks its exchange must pass. */
export interface SpentFlow {
  readonly flow: FlowRow;
  readonly checks: FlowChecks;
}

/**
 * The PKCE verifier and the nonce of a flow, derived from its browser's secret and its state: they
 * are never stored, and only the browser that started the flow can bring them back.
 */
function checksOf(binding: string, state: string): FlowChecks {
  const derive = (label: string) => createHmac("sha256", binding).update(`${label}:${state}`).digest("base64url");
  return { state, codeVerifier: derive("pkce"), nonce: derive("nonce") };
}

/** Who starts a flow, and what for. */
export interface FlowStart {
  readonly purpose: FlowPurpose;
  /** The user a link is for, and the session that asks for it. */
  readonly userId?: string;
  readonly sessionId?: string;
  readonly tokenVersion?: number;
  /** Where a sign-in returns to: a path of this origin. */
  readonly next?: string;
  readonly redirectUri: string;
  readonly now: number;
}

/**
 * Starts a flow: a new state (32 random bytes) and browser secret, the flow recorded by their
 * SHA-256 only, and the provider's authorization URL.
 */
export async function startFlow(store: IdentityStore, client: ProviderClient, start: FlowStart): Promise<StartedFlow> {
  const state = openid.randomState();
  const binding = randomBytes(32).toString("base64url");
  const url = await client.authorizationUrl(start.redirectUri, checksOf(binding, state));
  await store.insertFlow({
    stateHash: hashSecret(state),
    bindingHash: hashSecret(binding),
    provider: client.provider.id,
    purpose: start.purpose,
    userId: start.userId ?? null,
    sessionId: start.sessionId ?? null,
    tokenVersion: start.tokenVersion ?? null,
    next: start.next ?? null,
    createdAt: start.now,
    expiresAt: start.now + FLOW_TTL_SECONDS * 1000,
  });
  return { url, binding };
}

/**
 * Spends the flow of a callback: its `state` must be one this browser (its flow cookie) started,
 * unspent and in time; `undefined` otherwise (a replayed callback, one opened in another browser,
 * a forged or expired state).
 */
export async function spendFlow(
  store: IdentityStore,
  state: string | undefined,
  binding: string | null,
  now: number,
): Promise<SpentFlow | undefined> {
  if (!state || !binding) return undefined;
  const flow = await store.spendFlow(hashSecret(state), hashSecret(binding), now);
  return flow && { flow, checks: checksOf(binding, state) };
}
