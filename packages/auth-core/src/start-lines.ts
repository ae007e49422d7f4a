import type { Auth } from "./create-auth.js";
import type { BcryptImplementation } from "./password/bcrypt-library.js";

/** The line that says which bcrypt hashes passwords, and why not the native one when it does not. */
function hashingLine(implementation: BcryptImplementation): string {
  if (implementation.library === "bcrypt") return "domain-auth: passwords are hashed with the native bcrypt";
  return `domain-auth: passwords are hashed with bcryptjs (JavaScript, slower logins): ${implementation.notNative ?? "chosen"}`;
}

/**
 * The lines a server prints once it listens at `origin` (`http://localhost:3000`): which bcrypt
 * hashes passwords (the native one, or bcryptjs and why), where to go first, and, while setup is
 * open and anyone may register, that the first registration closes setup, `SETUP_TOKEN` or not.
 * The line saying where to go comes last.
 *
 * @example
 * for (const line of startLines(auth, "http://localhost:3000", await auth.isSetupRequired())) console.log(line);
 */
export function startLines(
  auth: Pick<Auth, "model" | "endpoints" | "setupTokenRequired"> & { readonly tools: Pick<Auth["tools"], "hasher"> },
  origin: string,
  setupRequired: boolean,
): string[] {
  const { hasher } = auth.tools;
  const lines = hasher ? [hashingLine(hasher.implementation)] : [];
  const firstRun = setupRequired && auth.model.auth?.endpoints.setup === true;
  if (!firstRun) return [...lines, `domain-auth: ready at ${origin}/`];
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
