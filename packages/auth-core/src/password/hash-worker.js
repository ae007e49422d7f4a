// Runs bcrypt off the main thread: one task is { op: "hash", password, cost } or { op: "compare", password, hash }.
import bcrypt from "bcryptjs";
import { lowerThreadPriority } from "../threads/lower-priority.js";

/**
 * How much nicer than the process a hashing thread runs: when the cores are busy with hashing, the
 * thread that answers requests still gets the CPU first, so `me` and token checks keep their idle
 * latency during a login storm.
 */
const HASH_THREAD_NICENESS = 10;
lowerThreadPriority(HASH_THREAD_NICENESS);

/** @param {{ op: "hash", password: string, cost: number } | { op: "compare", password: string, hash: string }} task */
export default function run(task) {
  return task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
}
