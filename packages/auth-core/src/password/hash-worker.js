// Runs bcrypt off the main thread: one task is { op: "hash", password, cost } or { op: "compare", password, hash }.
import bcrypt from "bcryptjs";

/** @param {{ op: "hash", password: string, cost: number } | { op: "compare", password: string, hash: string }} task */
export default function run(task) {
  return task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
}
