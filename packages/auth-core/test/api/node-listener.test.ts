import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeListener, PEER_ADDRESS_HEADER } from "../../src/index.js";
import { useInstance } from "../support/instance.js";

/** What a client sees of an answer, less what depends on the connection. */
interface Seen {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly contentLength: string | null;
}

const PER_CONNECTION = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("createNodeListener", () => {
  const instance = useInstance(createSqliteDatabase);
  // The instance's own handle writes JSON answers as text; a wrapped one goes through Web bodies.
  let direct: Server;
  let wrapped: Server;
  let directBase = "";
  let wrappedBase = "";
  let token = "";

  beforeAll(async () => {
    direct = createServer(createNodeListener(instance.auth));
    wrapped = createServer(createNodeListener((request) => instance.auth.handle(request)));
    directBase = await listen(direct);
    wrappedBase = await listen(wrapped);
    const { body } = await instance.api.post("/api/user/setup", { email: "admin@example.com", password: "correct horse battery" });
    token = (body as { token: string }).token;
  });
  afterAll(async () => {
    await Promise.all([direct, wrapped].map((server) => new Promise((resolve) => server?.close(resolve))));
  });

  async function seen(base: string, path: string, init: RequestInit): Promise<Seen> {
    const response = await fetch(`${base}${path}`, init);
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) if (!PER_CONNECTION.has(name)) headers[name] = value;
    return { status: response.status, headers, body: await response.text(), contentLength: response.headers.get("content-length") };
  }

  const cases: [string, string, () => RequestInit][] = [
    ["a JSON answer", "/api/user/me", () => ({ headers: { authorization: `Bearer ${token}` } })],
    ["a list", "/api/post?limit=20", () => ({ headers: { authorization: `Bearer ${token}` } })],
    ["HEAD", "/api/user/me", () => ({ method: "HEAD", headers: { authorization: `Bearer ${token}` } })],
    ["a 401 with its header", "/api/user/me", () => ({ headers: { authorization: "Bearer nope" } })],
    ["a 404", "/api/nothing", () => ({})],
    ["a 405 with Allow", "/api/user/me", () => ({ method: "DELETE" })],
    ["a 415", "/api/user/register", () => ({ method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })],
    [
      "a 413 over 16 KiB",
      "/api/user/register",
      () => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "x".repeat(17 * 1024) }) }),
    ],
    [
      "a 413 for a chunked body over 16 KiB (no Content-Length)",
      "/api/user/register",
      () =>
        ({
          method: "POST",
          headers: { "content-type": "application/json" },
          body: new Blob([JSON.stringify({ email: "x".repeat(17 * 1024) })]).stream(),
          duplex: "half",
        }) as RequestInit,
    ],
    [
      "a 400 for bad JSON",
      "/api/user/register",
      () => ({ method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }),
    ],
  ];

  it.each(cases)("answers %s exactly as the Web handler does", async (_name, path, init) => {
    const fast = await seen(directBase, path, init());
    const web = await seen(wrappedBase, path, init());
    expect(fast).toEqual({ ...web, contentLength: fast.contentLength });
    if (init().method === "HEAD") expect(fast.body).toBe("");
    else expect(fast.contentLength).toBe(String(Buffer.byteLength(fast.body)));
  });

  it("gives Web callers the whole JSON body", async () => {
    const response = await instance.auth.handle(
      new Request("http://localhost/api/user/me", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toMatchObject({ user: { email: "admin@example.com" } });
  });
});

describe("createNodeListener reading requests without a Web Request", () => {
  const seenAddresses: (string | null)[] = [];
  const instance = useInstance(createSqliteDatabase, undefined, {
    clientAddress: (request) => {
      seenAddresses.push(request.headers.get(PEER_ADDRESS_HEADER));
      return "test";
    },
  });
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer(createNodeListener(instance.auth));
    base = await listen(server);
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("reads a JSON body, and the peer address from the socket whatever the client sent", async () => {
    const response = await fetch(`${base}/api/user/setup`, {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: "203.0.113.9" },
      body: JSON.stringify({ email: "first@example.com", password: "correct horse battery" }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ user: { email: "first@example.com" } });
    expect(seenAddresses.length).toBeGreaterThan(0);
    expect(new Set(seenAddresses)).toEqual(new Set(["127.0.0.1"]));
  });

  it("answers a request line it cannot read as a URL with 400 and the error body", async () => {
    const { request } = await import("node:http");
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = request({ host: "127.0.0.1", port, path: "http://[bad", method: "GET" }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      sent.on("error", reject);
      sent.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "BAD_REQUEST" });
  });
});
