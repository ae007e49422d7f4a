// What piscina loads on the mail thread; the work is in smtp-worker.js. CommonJS on purpose, as
// ../password/hash-worker.cjs says: a thread ended while Node.js loads an ES module through
// require(esm) aborts the process, and an import() here can be ended safely.
const loaded = import("./smtp-worker.js");
// Its failure is the first send's to report, not an unhandled rejection of the thread.
loaded.catch(() => {});

/** @param {{ url: string, from: string, message: unknown }} job */
module.exports = async function send(job) {
  return (await loaded).default(job);
};
