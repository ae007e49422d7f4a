import { authFromEnv } from "@domain-auth/core";
import { currentUser } from "@domain-auth/core/next";
import type { AuthView } from "./domain-view";
import type { TwoStepStatus } from "./second-factor";

export type { TwoStepStatus } from "./second-factor";

/**
 * The signed-in user's two-step verification (server only): on when their TOTP is confirmed. `null`
 * when nobody is signed in or the domain serves no TOTP endpoints (`auth.mfa.totp: false`).
 */
export async function readTwoStepStatus(auth: Pick<AuthView, "endpoints">): Promise<TwoStepStatus | null> {
  if (!auth.endpoints.totp) return null;
  const [user, instance] = await Promise.all([currentUser(), authFromEnv()]);
  if (!user || !instance.tools.mfa) return null;
  const methods = await instance.tools.mfa.methodsOf(user.id);
  return { userId: user.id, enabled: methods.includes("totp") };
}
