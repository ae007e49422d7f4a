import type { ErrorBody, SessionView } from "@domain-auth/core/policy";
import { apiPaths } from "@domain-auth/core/policy";
import { useCallback, useState } from "react";
import { callApi } from "./api";
import type { AuthView } from "./domain-view";
import { useLoaded } from "./use-loaded";

/** One of the user's signed-in sessions, as `GET /api/<auth>/sessions` lists it (`current`: this device). */
export type SignedInSession = SessionView;

/** The user's signed-in sessions, newest first, with a way to load them again. */
export interface SignedInSessions {
  readonly items: readonly SignedInSession[];
  readonly loading: boolean;
  readonly error: ErrorBody | null;
  readonly reload: () => void;
}

/** Options of {@link useSignedInSessions}. */
export interface SignedInSessionsOptions {
  /** Loads the list again whenever it changes (after a change that ended sessions elsewhere). @default 0 */
  readonly version?: number;
}

/** Loads the signed-in sessions of the signed-in user. */
export function useSignedInSessions(auth: Pick<AuthView, "segment">, options: SignedInSessionsOptions = {}): SignedInSessions {
  const [version, setVersion] = useState(0);
  const path = apiPaths(auth).sessions;
  const request = JSON.stringify([path, version, options.version ?? 0]);
  const { value, loading } = useLoaded(request, () => callApi<{ items: SignedInSession[] }>(path));

  const reload = useCallback(() => setVersion((count) => count + 1), []);
  return { items: value?.ok ? value.data.items : [], error: value && !value.ok ? value.error : null, loading, reload };
}

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\//, "Firefox"],
  [/Chrome\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** A short name for the device of a `User-Agent` ("Chrome on Linux"); the header itself is shown beside it. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
