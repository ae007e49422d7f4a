// The SMTP capture server of mail-server.ts on a thread of its own: receiving and parsing a message
// then takes no time on the event loop of the server under test, so timing tests see only its work.
// Posts { port } once listening, then { message } for each message accepted.
import { parentPort } from "node:worker_threads";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((parsed) => {
        const to = Array.isArray(parsed.to) ? parsed.to.map((address) => address.text).join(", ") : (parsed.to?.text ?? "");
        const message = {
          to,
          from: parsed.from?.text ?? "",
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
        };
        parentPort.postMessage({ message });
        callback();
      })
      .catch((error) => callback(error));
  },
});

parentPort.on("message", (command) => {
  if (command === "close") server.close(() => parentPort.close());
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.server.address().port }));
