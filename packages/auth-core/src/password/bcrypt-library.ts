import { createRequire } from "node:module";

/** The bcrypt implementations a hasher can run: `bcrypt` (native, faster) and `bcryptjs` (JavaScript). */
export type BcryptLibrary = "bcrypt" | "bcryptjs";

/** Which implementation to run: `auto` takes the native `bcrypt` when it loads, else `bcryptjs`. */
export type BcryptChoice = "auto" | BcryptLibrary;

/** The environment variable that sets the default {@link BcryptChoice} of every hasher. */
export const BCRYPT_LIBRARY_VARIABLE = "AUTH_BCRYPT_LIBRARY";

const CHOICES: readonly BcryptChoice[] = ["auto", "bcrypt", "bcryptjs"];

/** The implementation a hasher runs, and why it is not the native one when it is not. */
export interface BcryptImplementation {
  readonly library: BcryptLibrary;
  /** Why the native `bcrypt` is not used: it could not load (the first line of its error), or it was not chosen. */
  readonly notNative?: string;
}

/** The part of the native module the hashing threads use (bcryptjs has the same two functions). */
interface SyncBcrypt {
  hashSync(password: string, cost: number): string;
  compareSync(password: string, hash: string): boolean;
}

/** The first line of what `error` says, for a start line. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.trim() || "unknown error";
}

/** What {@link loadNative} found, kept: whether the module loads does not change within a process. */
let nativeChecked: { readonly problem: string | undefined } | undefined;

/**
 * Loads the native module here and runs it once at the lowest cost, so a package installed without
 * a build for this platform (or built for another Node.js) is found at start, not at the first login.
 * @returns why it cannot be used, or `undefined` when it can.
 */
function loadNative(): string | undefined {
  nativeChecked ??= { problem: tryNative() };
  return nativeChecked.problem;
}

function tryNative(): string | undefined {
  try {
    const native = createRequire(import.meta.url)("bcrypt") as SyncBcrypt;
    if (!native.compareSync("probe", native.hashSync("probe", 4))) return "it failed a self-test";
    return undefined;
  } catch (error) {
    return firstLine(error);
  }
}

/** `choice`, or the default set by {@link BCRYPT_LIBRARY_VARIABLE} (`auto` when unset or empty). */
export function bcryptChoice(choice: BcryptChoice | undefined, env: NodeJS.ProcessEnv = process.env): BcryptChoice {
  const wanted = choice ?? (env[BCRYPT_LIBRARY_VARIABLE] || "auto");
  if (!(CHOICES as readonly string[]).includes(wanted)) {
    const from = choice === undefined ? BCRYPT_LIBRARY_VARIABLE : "the bcrypt library option";
    throw new RangeError(`${from} must be one of ${CHOICES.join(", ")} (got ${JSON.stringify(wanted)})`);
  }
  return wanted as BcryptChoice;
}

/**
 * The implementation to run for `choice`: `auto` falls back to `bcryptjs` when the native module
 * cannot load; `bcrypt` insists on it.
 *
 * @throws {Error} for `bcrypt` when the native module cannot load.
 */
export function resolveBcrypt(choice: BcryptChoice): BcryptImplementation {
  if (choice === "bcryptjs")
    return { library: "bcryptjs", notNative: `chosen with ${BCRYPT_LIBRARY_VARIABLE} or the bcryptLibrary option` };
  const problem = loadNative();
  if (problem === undefined) return { library: "bcrypt" };
  if (choice === "bcrypt") throw new Error(`the native bcrypt was asked for but does not load: ${problem}`);
  return { library: "bcryptjs", notNative: `the native bcrypt does not load: ${problem}` };
}
