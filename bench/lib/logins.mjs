// The login turns of the benchmarks: the core with the native bcrypt (where it loads), the same
// core forced onto bcryptjs, and Better Auth, with the limits and capacity of each bcrypt library
// measured between them, all taking turns.
import { hashCapacityNow, loginLimitNow, NATIVE_BCRYPT } from "./limits.mjs";
import { alternate, closedLoop } from "./load.mjs";

/**
 * Logins per second of `ours`, `oursBcryptjs` and `theirs` (`callers` at a time, `durationMs` per
 * turn), and in the same turns each library's limit (cores / one comparison) and capacity (one
 * thread per core comparing back to back): `limit`, `capacity` for bcryptjs, `limitNative`,
 * `capacityNative` for the native bcrypt where it loads.
 */
export function measureLogins({ ours, oursBcryptjs, theirs }, { rounds, durationMs, callers, cost }) {
  const logins = (contender) => async () => (await closedLoop(contender.login, { concurrency: callers, durationMs })).opsPerSecond;
  return alternate(
    [
      { name: "ours", measure: logins(ours) },
      { name: "theirs", measure: logins(theirs) },
      { name: "oursBcryptjs", measure: logins(oursBcryptjs) },
      { name: "limit", measure: async () => loginLimitNow({ cost }) },
      { name: "capacity", measure: () => hashCapacityNow({ cost, durationMs: 2000 }) },
      ...(NATIVE_BCRYPT
        ? [
            { name: "limitNative", measure: async () => loginLimitNow({ cost, library: "bcrypt" }) },
            { name: "capacityNative", measure: () => hashCapacityNow({ cost, durationMs: 2000, library: "bcrypt" }) },
          ]
        : []),
    ],
    rounds,
  );
}
