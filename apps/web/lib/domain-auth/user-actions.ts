import { type ErrorBody, itemPath, userSessionsPath } from "@domain-auth/core/policy";
import { type FormEvent, useState } from "react";
import { callApi } from "./api";
import type { AuthView } from "./domain-view";
import type { UserProfile } from "./profile";
import { needsReauthentication, type RetryWithPassword } from "./reauthentication";

/** What the admin does to a user: give another role, sign them out everywhere. */
export interface UserActions {
  /** What was done last, for the status line. */
  readonly status: string;
  /** What went wrong, as the API said it; `null` when nothing. */
  readonly failure: string | null;
  /** Set while a role change waits for the password of a recent sign-in (giving the setup role). */
  readonly retry: RetryWithPassword | null;
  readonly cancelRetry: () => void;
  /** Gives the role chosen in a role form (its `role` field); a change not given puts the form back. */
  readonly changeRole: (event: FormEvent<HTMLFormElement>, user: UserProfile) => Promise<void>;
  /** Ends every session of the user (`DELETE sessions?userId=`). */
  readonly signOutEverywhere: (user: UserProfile) => Promise<void>;
}

/** How a role change went: `given`, or the error a password prompt shows (a wrong password). */
interface RoleOutcome {
  readonly given: boolean;
  readonly error: ErrorBody | null;
}

/**
 * The admin's actions on users (setup role): `onDone` runs after each one with what it touched
 * (`role`: the user and their sessions, which a role change ends; `sessions`), for the page to read
 * them again.
 */
export function useUserActions(auth: Pick<AuthView, "segment">, onDone: (change: "role" | "sessions") => void): UserActions {
  const [status, setStatus] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<RetryWithPassword | null>(null);

  /** Sends a role change; giving the setup role from a session that signed in long ago first asks for the password. */
  async function giveRole(user: UserProfile, role: string | null, proof: { currentPassword?: string }): Promise<RoleOutcome> {
    const result = await callApi(itemPath(auth, user.id), { method: "PATCH", body: { role, ...proof } });
    if (needsReauthentication(result) && proof.currentPassword === undefined) {
      setRetry(() => async (currentPassword: string) => (await giveRole(user, role, { currentPassword })).error);
      return { given: false, error: null };
    }
    if (!result.ok && needsReauthentication(result)) return { given: false, error: result.error };
    setRetry(null);
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `${user.email} now has the role ${role ?? "none"}.` : "");
    onDone("role");
    return { given: result.ok, error: null };
  }

  async function changeRole(event: FormEvent<HTMLFormElement>, user: UserProfile) {
    event.preventDefault();
    const form = event.currentTarget;
    const role = String(new FormData(form).get("role") ?? "") || null;
    // Given, the choice stays until the user read again shows it; not given, the form shows the role the user still has.
    if (!(await giveRole(user, role, {})).given) form.reset();
  }

  async function signOutEverywhere(user: UserProfile) {
    const result = await callApi(userSessionsPath(auth, user.id), { method: "DELETE" });
    setFailure(result.ok ? null : result.error.message);
    setStatus(result.ok ? `${user.email} has been signed out everywhere.` : "");
    onDone("sessions");
  }

  return { status, failure, retry, cancelRetry: () => setRetry(null), changeRole, signOutEverywhere };
}
