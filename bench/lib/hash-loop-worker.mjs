// One thread of the hashing capacity measurement: bcrypt comparisons back to back for a while.
import { parentPort, workerData } from "node:worker_threads";
import bcrypt from "bcryptjs";

const { password, hash, durationMs } = workerData;
parentPort.once("message", () => {
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < durationMs) {
    bcrypt.compareSync(password, hash);
    count++;
  }
  parentPort.postMessage({ count, elapsedMs: performance.now() - started });
});
parentPort.postMessage("ready");
