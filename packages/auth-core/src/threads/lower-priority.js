// Lowers the scheduling priority of the thread that calls it, for work that runs beside the thread
// answering requests (hashing, sending e-mail).
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/**
 * Makes the calling thread `niceness` steps nicer than it is. When the cores are busy, the thread
 * that answers requests then gets the CPU first; with spare CPU the work runs at full speed. Linux
 * only (a thread's own id comes from /proc/thread-self); elsewhere, or when not permitted, the
 * thread keeps the process's priority.
 *
 * @param {number} niceness
 * @returns {void}
 */
export function lowerThreadPriority(niceness) {
  try {
    const thread = Number(readlinkSync("/proc/thread-self").split("/").pop());
    setPriority(thread, Math.min(19, getPriority(thread) + niceness));
  } catch {
    // Not Linux, or not permitted.
  }
}
