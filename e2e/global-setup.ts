import { existsSync } from "node:fs";
import { ensureBuilt } from "../apps/web/ensure-build.mjs";
import { CHROMIUM_PATH } from "./support/browser.js";

/** Builds the production app once (only when missing or stale) before any test file runs. */
export function setup(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; \`npm test\` installs it with apt-get`);
  ensureBuilt();
}
