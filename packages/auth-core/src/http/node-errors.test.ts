import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./errors.js";
import { rawErrorResponse, writeError } from "./node-errors.js";

describe("errors at the HTTP edge", () => {
  it("writes a whole HTTP/1.1 response with the table's status, reason and body, and the API's headers", () => {
    const text = rawErrorResponse("HEADERS_TOO_LARGE");
    const [head = "", body = ""] = text.split("\r\n\r\n");
    const [statusLine, ...headerLines] = head.split("\r\n");
    expect(statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    const headers = Object.fromEntries(headerLines.map((line) => line.split(": ") as [string, string]));
    expect(headers).toMatchObject({
      "content-type": "application/json; charset=utf-8",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      connection: "close",
      "content-length": String(Buffer.byteLength(body)),
    });
    expect(JSON.parse(body)).toEqual({ code: "HEADERS_TOO_LARGE", message: ERROR_CODES.HEADERS_TOO_LARGE.message });
    expect(rawErrorResponse("REQUEST_TIMEOUT").startsWith("HTTP/1.1 408 Request Timeout\r\n")).toBe(true);
  });

  it("answers a node:http response with the error body, and a message of its own when given", async () => {
    const server = createServer((_request, response) => writeError(response, "BAD_REQUEST", { message: "The request has no Host header" }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(response.status).toBe(400);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.json()).toEqual({ code: "BAD_REQUEST", message: "The request has no Host header" });
    } finally {
      server.close();
    }
  });
});
