// One thread of the hashing capacity measurement: bcrypt comparisons back to back for a while, with
// the library named in workerData (bcryptjs or the native bcrypt).
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const { password, hash, durationMs, library } = workerData;
const bcrypt = createRequire(import.meta.url)(library);
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
