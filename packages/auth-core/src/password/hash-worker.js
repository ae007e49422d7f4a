// Runs bcrypt off the main thread: one task is { op: "hash", password, cost } or { op: "compare", password, hash }.
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import bcrypt from "bcryptjs";

/**
 * How much nicer than the process a hashing thread runs. When the cores are busy with hashing,
 * the thread that answers requests still gets the CPU first, so `me` and token checks keep their
 * idle latency during a login storm; with spare CPU, hashing runs at full speed. Linux only (a
 * thread's own id comes from /proc/thread-self); elsewhere hashing keeps the process's priority.
 */
const HASH_THREAD_NICENESS = 10;
try {
  const thread = Number(readlinkSync("/proc/thread-self").split("/").pop());
  setPriority(thread, Math.min(19, getPriority(thread) + HASH_THREAD_NICENESS));
} catch {
  // Not Linux, or not permitted: hashing runs at the process's priority.
}

/** @param {{ op: "hash", password: string, cost: number } | { op: "compare", password: string, hash: string }} task */
export default function run(task) {
  return task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
}
