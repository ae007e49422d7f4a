// Sends e-mail with nodemailer on a thread of its own. Building a message and speaking SMTP take
// a few milliseconds of CPU; on the thread that answers requests that time would fall on the
// requests that follow one that sends a message, and tell that it did (a reset link goes only to
// an account that exists). One task: { url, from, message: { to, subject, text, html } }.
import nodemailer from "nodemailer";
import { lowerThreadPriority } from "../threads/lower-priority.js";

/** Nicer than the process, like the hashing threads: answering requests comes first. */
const MAIL_THREAD_NICENESS = 10;
lowerThreadPriority(MAIL_THREAD_NICENESS);

/** One transport per server and sender, made on first use. */
const transports = new Map();

/**
 * @param {{ url: string, from: string, message: { to: string, subject: string, text: string, html: string } }} task
 * @returns {Promise<void>}
 */
export default async function send({ url, from, message }) {
  const key = `${from}\n${url}`;
  let transport = transports.get(key);
  if (!transport) {
    transport = nodemailer.createTransport(url, { from });
    transports.set(key, transport);
  }
  await transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
}
