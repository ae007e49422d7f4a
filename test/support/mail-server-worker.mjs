// The SMTP capture server of mail-server.ts on a thread of its own: receiving and parsing a message
// then takes no time on the event loop of the server under test, so timing tests see only its work.
// Posts { port } once listening, then { message } for each message accepted.
import { parentPort } from "node:worker_threads";
import { createCaptureServer } from "./mail-capture.mjs";

const server = createCaptureServer((message) => parentPort.postMessage({ message }));

parentPort.on("message", (command) => {
  if (command === "close") server.close(() => parentPort.close());
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.server.address().port }));
