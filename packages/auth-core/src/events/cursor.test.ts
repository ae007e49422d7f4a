import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.js";

describe("event cursors", () => {
  it("stand for the position they were made from, as opaque base64url", () => {
    const position = { at: 1_767_225_600_123, id: "019b7a3e9a7b0000000100c0ffee" };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ["empty", ""],
    ["not base64url", "a+b/c="],
    ["not JSON", Buffer.from("at=1").toString("base64url")],
    ["not a pair", Buffer.from("[1]").toString("base64url")],
    ["a time that is no whole number", Buffer.from('[1.5,"ab"]').toString("base64url")],
    ["a negative time", Buffer.from('[-1,"ab"]').toString("base64url")],
    ["a time as text", Buffer.from('["1","ab"]').toString("base64url")],
    ["an id of other characters", Buffer.from('[1,"AB; drop"]').toString("base64url")],
    ["an id too long", Buffer.from(`[1,"${"a".repeat(65)}"]`).toString("base64url")],
    ["too long", "a".repeat(201)],
  ])("refuse anything else: %s", (_label, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});
