import { ADMIN, type SignedIn, setUpAdmin, signIn, signUp } from "@domain-auth/test-support/accounts";
import { beforeAll } from "vitest";
import { DEFAULT_REAUTH_WINDOW_SECONDS } from "../../src/sessions/lifetimes.js";
import type { ApiClient } from "./client.js";

/** An instance whose clock a test moves: its client and the move. */
export interface ClockedInstance {
  readonly api: ApiClient;
  advance(seconds: number): void;
}

/** Accounts for the suites of sensitive actions, on an instance whose clock they move. */
export interface StaleSessions {
  /** An address not used before in the suite. */
  freshEmail(label: string): string;
  /** The administrator, signed in now: the tests move the clock past tokens' lifetimes. */
  admin(): Promise<SignedIn>;
  /** A new user whose only session signed in longer ago than `AUTH_REAUTH_WINDOW`: what a thief who copied its token holds. */
  staleUser(label: string): Promise<SignedIn>;
}

/** Sets the administrator up before the suite, and makes the accounts its tests need (docs/security.md#sensitive-actions). */
export function useStaleSessions(test: ClockedInstance): StaleSessions {
  let counter = 0;
  const freshEmail = (label: string) => `${label}-${++counter}@example.com`;
  beforeAll(async () => {
    await setUpAdmin(test.api);
  });
  return {
    freshEmail,
    admin: () => signIn(test.api, ADMIN),
    async staleUser(label) {
      const user = await signUp(test.api, { email: freshEmail(label) });
      test.advance(DEFAULT_REAUTH_WINDOW_SECONDS + 1);
      return user;
    },
  };
}
