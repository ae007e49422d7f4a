// The SMTP server of the tests' mail capture, for mail-server.ts on the test's own thread and for
// mail-server-worker.mjs on a thread of its own: plain JavaScript, which a worker thread loads as it is.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** The fields of a parsed message that tests read. */
function capturedMail(parsed) {
  return {
    to: Array.isArray(parsed.to) ? parsed.to.map((address) => address.text).join(", ") : (parsed.to?.text ?? ""),
    from: parsed.from?.text ?? "",
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
  };
}

export function createCaptureServer(receive) {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          await receive(capturedMail(parsed));
          callback();
        })
        .catch((error) => callback(error));
    },
  });
}
