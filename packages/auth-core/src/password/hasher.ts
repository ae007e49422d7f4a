import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { type BcryptChoice, type BcryptImplementation, bcryptChoice, resolveBcrypt } from "./bcrypt-library.js";
import { isComparable } from "./rules.js";

/** Hashes and compares passwords with bcrypt on worker threads, so requests keep flowing. */
export interface PasswordHasher {
  /** The bcrypt implementation the threads run: the native `bcrypt`, or `bcryptjs` when that cannot load or was chosen. */
  readonly implementation: BcryptImplementation;
  /** @throws {HashQueueFullError} at once when the queue is full. */
  hash(password: string): Promise<string>;
  /**
   * `false` for a wrong password, and for one bcrypt would have to truncate (which still costs one
   * comparison, so the answer's timing tells nothing).
   * @throws {HashQueueFullError} at once when the queue is full.
   */
  verify(password: string, hash: string): Promise<boolean>;
  /**
   * Spends one comparison's time and returns `false`: used when no account matches.
   * @throws {HashQueueFullError} at once when the queue is full.
   */
  verifyNothing(password: string): Promise<false>;
  /**
   * Throws {@link HashQueueFullError} when a hash asked for now would be refused: lets a request
   * that will need one be refused before any work is done for it.
   */
  ensureRoom(): void;
  /**
   * Takes a place in the queue now, for a hash to come after other work (a database write that
   * should not happen when hashing is saturated anyway).
   * @throws {HashQueueFullError} at once when the queue is full.
   */
  reserve(): HashReservation;
  close(): Promise<void>;
}

/** A place in the hash queue, taken by {@link PasswordHasher.reserve}. */
export interface HashReservation {
  /** Hashes in the reserved place, which is free again once the hash is done. */
  hash(password: string): Promise<string>;
  /** Gives the place back if `hash` was not called; safe to call more than once. */
  release(): void;
}

export interface PasswordHasherOptions {
  /** bcrypt cost factor. @default 10 */
  cost?: number;
  /** Worker threads. @default the number of cores */
  threads?: number;
  /**
   * Hashes and comparisons that may wait for a thread while every thread is busy. One more is
   * refused at once with {@link HashQueueFullError}, so a flood cannot grow the wait without end:
   * the last one admitted waits about `maxQueue / threads` hashing times.
   * @default 8 × threads
   */
  maxQueue?: number;
  /**
   * The bcrypt implementation: `auto` runs the native `bcrypt` (an optional dependency) when it
   * loads and `bcryptjs` otherwise; `bcrypt` refuses to start without the native one; `bcryptjs`
   * never tries it. Both make and accept the same `$2a$`/`$2b$` hashes.
   * @default the AUTH_BCRYPT_LIBRARY environment variable, else `auto`
   */
  library?: BcryptChoice;
}

/** Queued hashes per thread by default: at cost 10 on a 2-core machine, about 0.6 s of waiting at most. */
export const DEFAULT_QUEUE_PER_THREAD = 8;

/** Every thread is busy and the queue is full: the caller should answer "try again shortly". */
export class HashQueueFullError extends Error {
  override readonly name = "HashQueueFullError";
  constructor(capacity: number) {
    super(`password hashing is saturated (${capacity} hashes running or waiting)`);
  }
}

/** Hashes and comparisons admitted and not yet settled, refused past a capacity. */
interface Admission {
  /** Throws {@link HashQueueFullError} when one more would be refused. */
  ensureRoom(): void;
  /** Admits one more, or throws {@link HashQueueFullError}. */
  take(): void;
  /** One admitted has settled (or its place was given back). */
  release(): void;
}

// Counted here rather than with Piscina's own maxQueue: that one counts only tasks waiting for a
// thread (plus room on threads still starting) and rejects with an anonymous Error; this counts
// every task not yet settled and refuses with a named error before anything is queued.
function createAdmission(capacity: number): Admission {
  let outstanding = 0;
  const ensureRoom = (): void => {
    if (outstanding >= capacity) throw new HashQueueFullError(capacity);
  };
  return {
    ensureRoom,
    take() {
      ensureRoom();
      outstanding++;
    },
    release() {
      outstanding--;
    },
  };
}

type Task =
  | { readonly op: "hash"; readonly password: string; readonly cost: number }
  | { readonly op: "compare"; readonly password: string; readonly hash: string };

/** A place taken in advance: its hash runs on the place, or it is given back. */
function reservation(
  admission: Admission,
  hashTaken: (password: string) => Promise<string>,
  hash: (password: string) => Promise<string>,
): HashReservation {
  admission.take();
  let held = true;
  return {
    hash: (password) => {
      if (!held) return hash(password);
      held = false;
      return hashTaken(password);
    },
    release() {
      if (held) admission.release();
      held = false;
    },
  };
}

/**
 * Creates the bcrypt hasher. Work runs on a pool of worker threads sized to the cores, behind
 * a bounded queue, with the native `bcrypt` when it loads (see {@link PasswordHasherOptions.library}).
 *
 * @example
 * const hasher = createPasswordHasher({ cost: 10 });
 * const hash = await hasher.hash("correct horse");
 */
export function createPasswordHasher(options: PasswordHasherOptions = {}): PasswordHasher {
  const cost = options.cost ?? 10;
  const threads = options.threads ?? availableParallelism();
  const maxQueue = options.maxQueue ?? DEFAULT_QUEUE_PER_THREAD * threads;
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 0) throw new RangeError("maxQueue must be a whole number of at least 0");
  const implementation = resolveBcrypt(bcryptChoice(options.library));
  const pool = new Piscina({
    filename: new URL("./hash-worker.cjs", import.meta.url).href,
    workerData: { library: implementation.library },
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
    // A thread between tasks sleeps instead of spinning on Atomics.wait: the spinning took CPU from
    // the thread that answers requests, on a machine whose cores are all hashing.
    atomics: "disabled",
  });
  const admission = createAdmission(threads + maxQueue);
  const runTaken = async <T>(task: Task): Promise<T> => {
    try {
      return await pool.run(task);
    } finally {
      admission.release();
    }
  };
  // Async, so a refusal is a rejected promise like any other failure of the task.
  const run = async <T>(task: Task): Promise<T> => {
    admission.take();
    return runTaken(task);
  };
  const hash = (password: string): Promise<string> => run({ op: "hash", password, cost });
  const compare = (password: string, stored: string): Promise<boolean> => run({ op: "compare", password, hash: stored });

  let dummyHash: Promise<string> | undefined;
  const verifyNothing = async (password: string): Promise<false> => {
    // A dummy hash refused by a full queue is not kept: the next call makes it again.
    dummyHash ??= hash("a password that matches nothing").catch((error: unknown) => {
      dummyHash = undefined;
      throw error;
    });
    await compare(isComparable(password) ? password : "", await dummyHash);
    return false;
  };

  return {
    implementation,
    hash,
    // No usable password (an invited user who has not chosen one): the same cost, never a match.
    verify: (password, stored) => (isComparable(password) && stored !== "" ? compare(password, stored) : verifyNothing(password)),
    verifyNothing,
    ensureRoom: admission.ensureRoom,
    reserve: () => reservation(admission, (password) => runTaken({ op: "hash", password, cost }), hash),
    close: () => pool.destroy(),
  };
}
