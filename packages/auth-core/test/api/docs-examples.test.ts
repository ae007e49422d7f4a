import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { createSqliteDatabase, type TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { type MailServer, startMailServer, tokenOf } from "@domain-auth/test-support/mail-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeListener, createSmtpMailer } from "../../src/index.js";
import { startInstance, type TestInstance } from "../support/instance.js";

interface Example {
  readonly command: string;
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: unknown;
}

/** Each ```sh block that runs curl, paired with the ```http block that follows it. */
function examplesOf(markdown: string): Example[] {
  const blocks = [...markdown.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({ kind: match[1], text: (match[2] as string).trim() }));
  const examples: Example[] = [];
  blocks.forEach((block, index) => {
    const answer = blocks[index + 1];
    if (block.kind !== "sh" || !block.text.startsWith("curl") || answer?.kind !== "http") return;
    const [head = "", body = ""] = answer.text.split(/\n\n/);
    const [statusLine = "", ...headerLines] = head.split("\n");
    examples.push({
      command: block.text,
      status: Number(statusLine.split(" ")[1]),
      headers: headerLines.map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]),
      body: body ? JSON.parse(body) : null,
    });
  });
  return examples;
}

function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shape(child)]));
  return typeof value;
}

/** Runs one example with curl, `env` set, and compares the answer with the documented one; resolves to the body. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are compared by shape, then read field by field
async function runExample(example: Example, env: Record<string, string>): Promise<any> {
  const { stdout: output } = await promisify(execFile)("bash", ["-c", `${example.command} -s`], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  const [head = "", body = ""] = output.split(/\r\n\r\n/);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = new Map(
    headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  expect(Number(statusLine.split(" ")[1]), example.command).toBe(example.status);
  for (const [name, value] of example.headers) expect(headers.get(name.toLowerCase()), `${name} of ${example.command}`).toContain(value);
  const parsed = body ? JSON.parse(body) : null;
  expect(shape(parsed), example.command).toEqual(shape(example.body));
  return parsed;
}

describe("the curl examples of docs/api.md", () => {
  const examples = examplesOf(readFileSync(new URL("../../../../docs/api.md", import.meta.url), "utf8"));
  let database: TestDatabase;
  let instance: TestInstance;
  let server: Server;
  let base = "";
  let token = "";
  let refreshToken = "";
  let mail: MailServer;
  let mailToken = "";
  let mailsRead = 0;

  beforeAll(async () => {
    database = createSqliteDatabase();
    mail = await startMailServer();
    instance = await startInstance(domainOf(BLOG_YAML), database.url, {
      mail: { mailer: createSmtpMailer({ url: mail.url, from: "no-reply@app.example.com" }), appUrl: "https://app.example.com" },
    });
    server = createServer(createNodeListener(instance.auth));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await instance?.auth.close();
    await mail?.close();
    await database?.drop();
  });

  it("documents enough examples", () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it("answers each example as documented, in order", async () => {
    for (const example of examples) {
      if (example.command.includes("$MAIL_TOKEN") && mail.messages.length > mailsRead) {
        mailToken = tokenOf(mail.messages[mail.messages.length - 1] as (typeof mail.messages)[number]);
        mailsRead = mail.messages.length;
      }
      const sent = mail.messages.length;
      await runAndCheck(example);
      if (example.command.includes("forgot-password") || example.command.includes("resend-verification")) {
        // The message leaves after the answer: wait for it before the example that uses its link.
        const deadline = Date.now() + 10_000;
        while (mail.messages.length === sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });

  /** Runs one example with curl and compares the answer with the documented one. */
  async function runAndCheck(example: Example): Promise<void> {
    const parsed = await runExample(example, { BASE: base, TOKEN: token, REFRESH_TOKEN: refreshToken, MAIL_TOKEN: mailToken });
    if (typeof parsed?.token === "string") token = parsed.token;
    if (typeof parsed?.refreshToken === "string") refreshToken = parsed.refreshToken;
  }
});

describe("the curl examples of docs/api-keys.md", () => {
  const examples = examplesOf(readFileSync(new URL("../../../../docs/api-keys.md", import.meta.url), "utf8"));
  let database: TestDatabase;
  let instance: TestInstance;
  let server: Server;
  const env: Record<string, string> = { BASE: "", TOKEN: "", API_KEY: "", KEY_ID: "" };

  beforeAll(async () => {
    database = createSqliteDatabase();
    instance = await startInstance(domainOf(BLOG_YAML), database.url);
    server = createServer(createNodeListener(instance.auth));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    env.BASE = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await instance?.auth.close();
    await database?.drop();
  });

  it("answers each example as documented, in order", async () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const example of examples) {
      const parsed = await runExample(example, env);
      if (typeof parsed?.token === "string") env.TOKEN = parsed.token;
      if (typeof parsed?.key === "string") Object.assign(env, { API_KEY: parsed.key, KEY_ID: parsed.id });
    }
  });
});
