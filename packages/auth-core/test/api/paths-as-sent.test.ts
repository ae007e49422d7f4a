import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeListener } from "../../src/index.js";
import { useInstance } from "../support/instance.js";

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** Sends `target` as the request line's target, byte for byte (fetch would normalize it first). */
function sendAsIs(server: Server, method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path: target, method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/**
 * Paths that a URL parser, or a decoder, would turn into a real route. Matched as sent, each names
 * nothing: the answer is 404 NOT_FOUND, never the route it would have become.
 */
const TRICKS = [
  "/api/%zz/../post",
  "/api/post/%zz/..",
  "/api/%C0/../post",
  "/api/%zz/%2e%2e/post",
  "/api/%zz\\..\\post",
  "/api/x/../post",
  "/api/./post",
  "/api/post/.",
  "/api//post",
  "/api/post/",
  "/api/%70ost",
  "/api/p%6Fst",
  "/api/post%2f",
  "/api/%252e%252e/post",
  "/api/post;x",
  "/api/Post",
  "/api/user/%6De",
  "/api/user/me/",
  "/api/user/./me",
];

describe.each(BACKENDS)("paths matched as sent on $name", (backend) => {
  const instance = useInstance(backend.create);
  let server: Server;
  let token = "";
  let postId = "";

  beforeAll(async () => {
    server = createServer(createNodeListener(instance.auth));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const setup = await instance.api.post("/api/user/setup", { email: "admin@example.com", password: "correct horse battery" });
    token = (setup.body as { token: string }).token;
    const created = await instance.api.post("/api/post", { title: "Kept" }, { token });
    postId = (created.body as { item: { id: string } }).item.id;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("answers the plain paths (the control)", async () => {
    const authorization = `Bearer ${token}`;
    expect((await sendAsIs(server, "GET", "/api/post", { authorization })).status).toBe(200);
    expect((await sendAsIs(server, "GET", `/api/post/${postId}`, { authorization })).status).toBe(200);
    expect((await sendAsIs(server, "GET", "/api/user/me", { authorization })).status).toBe(200);
  });

  it.each(TRICKS)("GET %s is 404 NOT_FOUND, never another route", async (target) => {
    const answer = await sendAsIs(server, "GET", target, { authorization: `Bearer ${token}` });
    expect(answer).toEqual({ status: 404, body: expect.stringContaining('"code":"NOT_FOUND"') });
  });

  it("creates, deletes and signs in through no path trick", async () => {
    const json = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const created = await sendAsIs(server, "POST", "/api/%zz/../post", json, JSON.stringify({ title: "Smuggled" }));
    expect(created.status).toBe(404);
    const deleted = await sendAsIs(server, "DELETE", `/api/post/%zz/../${postId}`, json);
    expect(deleted.status).toBe(404);
    const login = await sendAsIs(
      server,
      "POST",
      "/api/%zz/../user/login",
      { "content-type": "application/json" },
      JSON.stringify({ email: "admin@example.com", password: "correct horse battery" }),
    );
    expect(login).toEqual({ status: 404, body: expect.not.stringContaining("token") });
    const list = await sendAsIs(server, "GET", "/api/post", { authorization: `Bearer ${token}` });
    expect(JSON.parse(list.body)).toMatchObject({ total: 1, items: [{ title: "Kept" }] });
  });

  it("matches a Web Request's path as its URL holds it: a percent-encoded name is not that name", async () => {
    const response = await instance.auth.handle(new Request("http://localhost/api/%70ost"));
    expect(response.status).toBe(404);
  });
});
