import { ensureBuilt } from "../../apps/web/ensure-build.mjs";

/** Builds the production app once (only when missing or stale) before any test file runs. */
export function setup(): void {
  ensureBuilt();
}
