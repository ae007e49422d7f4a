import {
  type ErrorBody,
  type EventPage,
  type EventsQuery,
  eventsPath,
  type SecurityEvent,
  type SecurityEventType,
} from "@domain-auth/core/policy";
import { useMemo, useState } from "react";
import { callApi } from "./api";
import type { AuthView } from "./domain-view";
import { useLoaded } from "./use-loaded";

/** What each kind of security event is called in the pages. */
export const EVENT_LABELS: Readonly<Record<SecurityEventType, string>> = {
  setup: "First administrator created",
  register: "Registered",
  "login.succeeded": "Signed in",
  "login.failed": "Failed sign-in attempt",
  "login.locked": "Sign-ins locked after failed attempts",
  logout: "Signed out",
  "session.revoked": "Session signed out",
  "session.reuse_detected": "Stolen refresh token detected",
  "password.changed": "Password changed",
  "password.reset_requested": "Password reset requested",
  "password.reset": "Password reset",
  "email.changed": "Email changed",
  "email.verified": "Email confirmed",
  "role.changed": "Role changed",
  "user.created": "User created",
  "user.deleted": "User deleted",
  "invitation.sent": "Invitation sent",
  "mfa.enabled": "Two-step verification turned on",
  "mfa.disabled": "Two-step verification turned off",
  "mfa.failed": "Wrong second-step code",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "identity.linked": "Account connected",
  "identity.unlinked": "Account disconnected",
  "organization.created": "Organization created",
  "organization.deleted": "Organization deleted",
  "member.added": "Joined an organization",
  "member.role_changed": "Organization role changed",
  "member.removed": "Left or removed from an organization",
  "invitation.accepted": "Invitation accepted",
};

/** A page of security events, newest first, with the way to the older ones and back. */
export interface SecurityEventPages {
  readonly items: readonly SecurityEvent[];
  readonly loading: boolean;
  readonly error: ErrorBody | null;
  /** Whether a page of older events follows. */
  readonly hasOlder: boolean;
  /** Whether this is not the newest page. */
  readonly hasNewer: boolean;
  readonly older: () => void;
  readonly newer: () => void;
}

/**
 * Loads `GET /api/<auth>/events` a page at a time (keyset: each page's `nextCursor` opens the
 * next). A change of `query` starts again from the newest page.
 */
export function useSecurityEvents(auth: Pick<AuthView, "segment">, query: Omit<EventsQuery, "before">): SecurityEventPages {
  const filters = JSON.stringify(query);
  // The cursors of the pages shown so far: `undefined` for the newest.
  const [trail, setTrail] = useState<{ filters: string; cursors: readonly (string | undefined)[] }>({ filters, cursors: [undefined] });
  const cursors = useMemo(() => (trail.filters === filters ? trail.cursors : [undefined]), [trail, filters]);
  const before = cursors[cursors.length - 1];
  const path = eventsPath(auth, { ...(JSON.parse(filters) as EventsQuery), ...(before ? { before } : {}) });
  const loaded = useLoaded(path, () => callApi<EventPage>(path));
  const answer = loaded.value;

  const nextCursor = !loaded.loading && answer?.ok ? answer.data.nextCursor : null;
  const older = () => {
    if (nextCursor) setTrail({ filters, cursors: [...cursors, nextCursor] });
  };
  const newer = () => setTrail({ filters, cursors: cursors.slice(0, -1) });
  return {
    items: answer?.ok ? answer.data.items : [],
    loading: loaded.loading,
    error: answer && !answer.ok ? answer.error : null,
    hasOlder: nextCursor !== null,
    hasNewer: cursors.length > 1,
    older,
    newer,
  };
}
