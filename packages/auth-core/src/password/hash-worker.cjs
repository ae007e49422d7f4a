// What piscina loads on each hashing thread; the work is in hash-worker.js. CommonJS on purpose:
// piscina loads a worker file with require() first, and Node.js (20.19 and newer) then evaluates an
// ES module through require(esm), which aborts the whole process (V8: "Empty MaybeLocal") when the
// pool ends a thread that is still loading it, as closing an instance right after it started does.
// An import() here is asynchronous, and ending the thread while it runs is safe.
const loaded = import("./hash-worker.js");
// Its failure is the first task's to report, not an unhandled rejection of the thread.
loaded.catch(() => {});

/** @param {{ op: "hash", password: string, cost: number } | { op: "compare", password: string, hash: string }} task */
module.exports = async function run(task) {
  return (await loaded).default(task);
};
