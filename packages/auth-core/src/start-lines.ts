import type { Auth } from "./create-auth.js";

/**
 * The lines a server prints once it listens at `origin` (`http://localhost:3000`): where to go
 * first, and, while setup is open and anyone may register, that the first registration closes
 * setup, `SETUP_TOKEN` or not. The line saying where to go comes last.
 *
 * @example
 * for (const line of startLines(auth, "http://localhost:3000", await auth.isSetupRequired())) console.log(line);
 */
export function startLines(
  auth: Pick<Auth, "model" | "endpoints" | "setupTokenRequired">,
  origin: string,
  setupRequired: boolean,
): string[] {
  const firstRun = setupRequired && auth.model.auth?.endpoints.setup === true;
  if (!firstRun) return [`domain-auth: ready at ${origin}/`];
  const lines: string[] = [];
  if (auth.endpoints?.register) {
    lines.push(
      "domain-auth: warning: register is on: until setup is done, anyone who registers first closes setup (then only `npx create-domain-auth admin <email>` lets you in)",
    );
  }
  lines.push(
    auth.setupTokenRequired
      ? `domain-auth: setup needs the SETUP_TOKEN you set: create the first administrator at ${origin}/setup`
      : `domain-auth: create the first administrator at ${origin}/setup`,
  );
  return lines;
}
