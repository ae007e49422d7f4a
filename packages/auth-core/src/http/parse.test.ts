import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./errors.js";
import { parseBody, readBody } from "./parse.js";

const schema = z.strictObject({ email: z.string({ error: "must be a string" }), tags: z.array(z.string()).optional() });

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("the one body parser", () => {
  it("answers INVALID_BODY with one issue per problem, nested paths kept", () => {
    const error = refusal(() => parseBody(schema, { email: 1, tags: ["a", 2] }));
    expect(error.code).toBe("INVALID_BODY");
    expect(error.issues).toEqual([
      { path: ["email"], message: "must be a string" },
      { path: ["tags", 1], message: expect.any(String) },
    ]);
  });

  it("names each key a body may not carry", () => {
    expect(refusal(() => parseBody(schema, { email: "a@b.io", role: "Admin", id: "x" })).issues).toEqual([
      { path: ["role"], message: "is not a field you can set" },
      { path: ["id"], message: "is not a field you can set" },
    ]);
  });

  it("reads the request's JSON first: 415 before any validation", async () => {
    const request = new Request("http://localhost/", { method: "POST", body: "{}" });
    await expect(readBody(request, schema)).rejects.toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    const json = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"email":"a@b.io"}',
    });
    expect(await readBody(json, schema)).toEqual({ email: "a@b.io" });
  });
});
