// The physical limits: what one password hash costs on this machine, and the two pieces of work
// a `me` request cannot avoid (one HMAC verify, one read by primary key of the session and its user).
import { scryptSync } from "node:crypto";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { createTokenService } from "@domain-auth/core/admin";
import { median } from "./stats.mjs";

const require = createRequire(import.meta.url);

/** The native bcrypt, or `null` where it does not load (it is an optional dependency). */
function loadNative() {
  try {
    return require("bcrypt");
  } catch {
    return null;
  }
}

/** The bcrypt implementations measured, by package name: bcryptjs always, the native bcrypt where it loads. */
export const BCRYPT_LIBRARIES = { bcryptjs: require("bcryptjs"), ...(loadNative() ? { bcrypt: loadNative() } : {}) };
/** `true` when the native bcrypt loads here, so its limits are measured too. */
export const NATIVE_BCRYPT = "bcrypt" in BCRYPT_LIBRARIES;
const bcrypt = BCRYPT_LIBRARIES.bcryptjs;

/** Milliseconds of one call of `work`, median of `runs`. */
function timeEach(work, runs) {
  const times = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Milliseconds per call of the async `work`, median of `batches` batches of `size` calls in a row. */
async function timeBatches(work, { batches = 5, size = 500 } = {}) {
  const perCall = [];
  for (let batch = 0; batch < batches; batch++) {
    const started = performance.now();
    for (let call = 0; call < size; call++) await work();
    perCall.push((performance.now() - started) / size);
  }
  return median(perCall);
}

/**
 * Hash limits: one bcryptjs hash and compare at `cost` (on this thread), the same with the native
 * bcrypt where it loads (`nativeHashMs`, `nativeCompareMs`, else `null`), one scrypt with Better
 * Auth's parameters, and the login ceiling they imply (cores / one bcryptjs compare).
 */
export function hashLimits({ cost, runs = 7 }) {
  const password = "correct horse battery staple";
  const hash = bcrypt.hashSync(password, cost);
  const bcryptHashMs = timeEach(() => bcrypt.hashSync(password, cost), runs);
  const bcryptCompareMs = timeEach(() => bcrypt.compareSync(password, hash), runs);
  const native = BCRYPT_LIBRARIES.bcrypt;
  const nativeHashMs = native ? timeEach(() => native.hashSync(password, cost), runs) : null;
  const nativeCompareMs = native ? timeEach(() => native.compareSync(password, hash), runs) : null;
  const scryptMs = timeEach(() => scryptSync(password, "0123456789abcdef", 64, { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 }), runs);
  const cores = availableParallelism();
  return {
    cost,
    cores,
    bcryptHashMs,
    bcryptCompareMs,
    nativeHashMs,
    nativeCompareMs,
    scryptMs,
    loginLimitPerSecond: cores * (1000 / bcryptCompareMs),
  };
}

const PASSWORD = "correct horse battery staple";
let sampleHash;

/** The library `name` of {@link BCRYPT_LIBRARIES}; throws when it did not load. */
function libraryOf(name) {
  const library = BCRYPT_LIBRARIES[name];
  if (!library) throw new Error(`${name} does not load here`);
  return library;
}

/**
 * The login ceiling from one bcrypt comparison with `library` (`bcryptjs` or `bcrypt`) on this
 * thread: cores / its time (median of `runs`).
 */
export function loginLimitNow({ cost, runs = 3, library = "bcryptjs" }) {
  const { compareSync } = libraryOf(library);
  sampleHash ??= bcrypt.hashSync(PASSWORD, cost);
  const compareMs = timeEach(() => compareSync(PASSWORD, sampleHash), runs);
  return availableParallelism() * (1000 / compareMs);
}

/**
 * What the cores actually deliver right now: one thread per core comparing passwords with
 * `library` back to back for `durationMs`, nothing else. Comparisons per second in all.
 */
export async function hashCapacityNow({ cost, durationMs = 2000, library = "bcryptjs" }) {
  libraryOf(library);
  sampleHash ??= bcrypt.hashSync(PASSWORD, cost);
  const workers = Array.from(
    { length: availableParallelism() },
    () =>
      new Worker(new URL("./hash-loop-worker.mjs", import.meta.url), {
        workerData: { password: PASSWORD, hash: sampleHash, durationMs, library },
        execArgv: [],
      }),
  );
  try {
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once("message", resolve))));
    const results = await Promise.all(
      workers.map((worker) => {
        const done = new Promise((resolve) => worker.once("message", resolve));
        worker.postMessage("go");
        return done;
      }),
    );
    return results.reduce((sum, { count, elapsedMs }) => sum + count / (elapsedMs / 1000), 0);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * The floor of `me` on an instance from {@link createOurs}: one HS256 verify with auth-core's
 * token service and one read of the token's session with its user (what `me` reads since sessions,
 * docs/api.md#tokens), each timed alone in the same batches as the read `me` made before sessions: the user
 * alone, by id. The two reads side by side are the before-and-after of the token check in one run.
 */
export async function meFloor(ours, { batches = 5, size = 500 } = {}) {
  const { auth, secret } = ours;
  const tokens = createTokenService({ secret, issuer: auth.model.name });
  const entity = auth.model.auth.entity;
  const user = (await auth.tools.store.list(entity, { limit: 1, offset: 0 })).rows[0];
  const { sessionId } = await auth.tools.sessions.start(user.id, { userAgent: "bench floor", address: null });
  const { token } = await tokens.issue({
    id: user.id,
    email: user.email,
    role: user.role ?? null,
    tokenVersion: Number(user.tokenVersion),
    sessionId,
  });
  const verifyMs = await timeBatches(
    async () => {
      if (!(await tokens.verify(token))) throw new Error("the token did not verify");
    },
    { batches, size },
  );
  const readMs = await timeBatches(
    async () => {
      if (!(await auth.tools.store.find(entity, user.id))) throw new Error("the user was not found");
    },
    { batches, size },
  );
  const sessionReadMs = await timeBatches(
    async () => {
      if (!(await auth.tools.sessions.findLive(entity, sessionId))) throw new Error("the session was not found");
    },
    { batches, size },
  );
  const floorMs = verifyMs + sessionReadMs;
  return { verifyMs, readMs, sessionReadMs, floorMs, floorPerSecond: 1000 / floorMs, floorBeforeMs: verifyMs + readMs };
}
