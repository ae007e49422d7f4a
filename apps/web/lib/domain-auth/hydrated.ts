import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/**
 * `false` during the server render and hydration, `true` once React runs in the browser:
 * submit buttons stay disabled until their handlers exist, so a form never posts itself natively.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
