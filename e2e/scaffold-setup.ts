import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "./support/browser.js";

/** The scaffold tests build projects of their own: they need Chromium, not the web app's build. */
export function setup(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; \`npm test\` installs it with apt-get`);
}
