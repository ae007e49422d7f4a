import { createRequire } from "node:module";

/** The packages the core loads only when a setting asks for them: its optional peer dependencies. */
export const OPTIONAL_PEERS = {
  "better-sqlite3": "a file: DATABASE_URL (SQLite)",
  pg: "a postgres:// DATABASE_URL (PostgreSQL)",
  nodemailer: "SMTP_URL (sending e-mail)",
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** Whether `error` says that `name` itself (not something it imports) could not be found. */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return typeof message === "string" && (message.includes(`'${name}'`) || message.includes(`"${name}"`));
}

function missingPeerError(name: OptionalPeer, cause: unknown): Error {
  return new Error(`${OPTIONAL_PEERS[name]} needs the ${name} package, which is not installed: run npm install ${name}`, { cause });
}

/**
 * Loads an optional peer dependency with `load` (an `import()` of `name`, so its types and bundlers
 * follow it); a missing package becomes an error naming the package to install and what needs it.
 *
 * @example
 * const { default: pg } = await importOptionalPeer("pg", () => import("pg"));
 */
export async function importOptionalPeer<T>(name: OptionalPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, name)) throw missingPeerError(name, error);
    throw error;
  }
}

/**
 * Throws the error of {@link importOptionalPeer} when `name` cannot be found from this package:
 * for a peer a worker thread loads, so the setting that needs it fails where it is read.
 */
export function assertOptionalPeerInstalled(name: OptionalPeer): void {
  try {
    createRequire(import.meta.url).resolve(name);
  } catch (error) {
    if (isMissing(error, name)) throw missingPeerError(name, error);
    throw error;
  }
}
