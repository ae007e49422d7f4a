// Runs bcrypt off the main thread: one task is { op: "hash", password, cost } or { op: "compare", password, hash }.
import { createRequire } from "node:module";
import { workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../threads/lower-priority.js";

/**
 * How much nicer than the process a hashing thread runs: when the cores are busy with hashing, the
 * thread that answers requests still gets the CPU first, so `me` and token checks keep their idle
 * latency during a login storm.
 */
const HASH_THREAD_NICENESS = 10;
lowerThreadPriority(HASH_THREAD_NICENESS);

/**
 * The library the hasher chose on the main thread (where the native one was loaded and tried), so
 * every thread runs the same one. Its synchronous functions run on this thread, at this thread's
 * priority: the native module's asynchronous ones would hash on libuv's pool instead.
 *
 * @type {{ hashSync(password: string, cost: number): string, compareSync(password: string, hash: string): boolean }}
 */
const bcrypt = createRequire(import.meta.url)(workerData?.library === "bcrypt" ? "bcrypt" : "bcryptjs");

/** @param {{ op: "hash", password: string, cost: number } | { op: "compare", password: string, hash: string }} task */
export default function run(task) {
  return task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
}
