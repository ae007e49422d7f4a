import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { isComparable } from "./rules.js";

/** Hashes and compares passwords with bcrypt on worker threads, so requests keep flowing. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * `false` for a wrong password, and for one bcrypt would have to truncate (which still costs one
   * comparison, so the answer's timing tells nothing).
   */
  verify(password: string, hash: string): Promise<boolean>;
  /** Spends one comparison's time and returns `false`: used when no account matches. */
  verifyNothing(password: string): Promise<false>;
  close(): Promise<void>;
}

export interface PasswordHasherOptions {
  /** bcrypt cost factor. @default 10 */
  cost?: number;
  /** Worker threads. @default the number of cores */
  threads?: number;
}

/**
 * Creates the bcrypt hasher. Work runs on a pool of worker threads sized to the cores.
 *
 * @example
 * const hasher = createPasswordHasher({ cost: 10 });
 * const hash = await hasher.hash("correct horse");
 */
export function createPasswordHasher(options: PasswordHasherOptions = {}): PasswordHasher {
  const cost = options.cost ?? 10;
  const threads = options.threads ?? availableParallelism();
  const pool = new Piscina({
    filename: new URL("./hash-worker.js", import.meta.url).href,
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  let dummyHash: Promise<string> | undefined;

  const hash = (password: string): Promise<string> => pool.run({ op: "hash", password, cost });
  const compare = (password: string, stored: string): Promise<boolean> => pool.run({ op: "compare", password, hash: stored });

  const verifyNothing = async (password: string): Promise<false> => {
    dummyHash ??= hash("a password that matches nothing");
    await compare(isComparable(password) ? password : "", await dummyHash);
    return false;
  };

  return {
    hash,
    async verify(password, stored) {
      return isComparable(password) ? compare(password, stored) : verifyNothing(password);
    },
    verifyNothing,
    close: () => pool.destroy(),
  };
}
