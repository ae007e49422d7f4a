import { readFileSync } from "node:fs";
import net from "node:net";
import { parseJson } from "@domain-auth/test-support/http-client";
import { findLeaks } from "@domain-auth/test-support/leaks";

/** One answer read off a raw socket. */
export interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly text: string;
  readonly body: unknown;
}

/**
 * Writes `parts` to a fresh connection one after another (a few ms apart, so chunks really arrive
 * apart) and reads the answer until the server closes the connection (`Connection: close` is the
 * caller's to send) or 10 s pass. For what `fetch` refuses to send: bad header bytes, lying lengths,
 * hand-made chunked bodies.
 */
export function rawRequest(port: number, parts: readonly (string | Buffer)[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 10 s; got: ${Buffer.concat(chunks).toString("latin1").slice(0, 300)}`));
    }, 10_000);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString("utf8");
      const split = all.indexOf("\r\n\r\n");
      const head = split < 0 ? all : all.slice(0, split);
      let text = split < 0 ? "" : all.slice(split + 4);
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) text = dechunk(text);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, text, body: parseJson(text) });
    });
    socket.on("connect", async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        await new Promise((wait) => setTimeout(wait, 5));
      }
    });
  });
}

function dechunk(text: string): string {
  let out = "";
  let rest = text;
  for (let guard = 0; guard < 10_000; guard++) {
    const end = rest.indexOf("\r\n");
    if (end < 0) break;
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!(size > 0)) break;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
  return out;
}

const STACK_TRACE = /\n\s+at [^\n]*:\d+:\d+|node_modules\/|\/work\/|file:\/\/\/|\bat (?:async )?[\w.<>]+ \(/;
/** Why `issues` is not the documented `[{ path: [...], message }]`, or `null`. */
function issuesProblem(issues: unknown): string | null {
  if (!Array.isArray(issues)) return "issues is not an array";
  for (const issue of issues) {
    if (issue === null || typeof issue !== "object") return "an issue is not an object";
    const { path, message, ...rest } = issue as Record<string, unknown>;
    if (!Array.isArray(path) || typeof message !== "string" || Object.keys(rest).length > 0) return `bad issue ${JSON.stringify(issue)}`;
  }
  return null;
}

/**
 * Every way an answer breaks the API's documented promises to any caller: a 5xx (other than 503
 * `UNAVAILABLE` when `allowUnavailable`), a stack trace, an error without the error body, any of the
 * leaks {@link findLeaks} lists. Empty when the answer is safe.
 */
export function safetyProblems(
  answer: { status: number; text: string; body: unknown },
  options: { head?: boolean; allowUnavailable?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const code = (answer.body as { code?: unknown } | undefined)?.code;
  if (answer.status >= 500 && !(options.allowUnavailable && answer.status === 503 && code === "UNAVAILABLE"))
    problems.push(`status ${answer.status}`);
  if (answer.status < 100) problems.push("no HTTP answer");
  if (STACK_TRACE.test(answer.text)) problems.push("stack trace or server path in the body");
  problems.push(...findLeaks(answer));
  if (answer.status >= 400 && !options.head) {
    const body = answer.body as Record<string, unknown> | undefined;
    if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body))
      problems.push("error without a JSON object body");
    else {
      const { code: errorCode, message, issues, ...rest } = body;
      if (typeof errorCode !== "string" || !/^[A-Z][A-Z_]*$/.test(errorCode)) problems.push(`bad code ${JSON.stringify(errorCode)}`);
      if (typeof message !== "string" || message === "") problems.push("no message");
      if (issues !== undefined) {
        const problem = issuesProblem(issues);
        if (problem) problems.push(problem);
      }
      if (Object.keys(rest).length > 0) problems.push(`extra keys ${Object.keys(rest).join(", ")}`);
    }
  }
  return problems;
}

/** The resident set size of a process in KiB, from `/proc/<pid>/status`. */
export function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/** Runs `tasks` with at most `limit` at a time; results in the order of `tasks`. */
export async function pool<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** The port of a `http://127.0.0.1:<port>` URL. */
export function portOf(url: string): number {
  return Number(new URL(url).port);
}
