import { describe, expect, it } from "vitest";
import { closestMatch, toSegment, toTableName } from "./naming.js";

describe("toSegment", () => {
  it.each([
    ["User", "user"],
    ["StaffMember", "staff-member"],
    ["APIKey", "api-key"],
    ["OAuth2Client", "o-auth2-client"],
    ["HTTPServerLog", "http-server-log"],
  ])("%s → %s", (name, segment) => {
    expect(toSegment(name)).toBe(segment);
  });

  it("gives snake_case table names", () => {
    expect(toTableName("APIKey")).toBe("api_key");
  });
});

describe("closestMatch", () => {
  it("suggests a close misspelling, transpositions included", () => {
    expect(closestMatch("raed", ["create", "read", "update", "delete"])).toBe("read");
    expect(closestMatch("feilds", ["owner", "fields", "permissions"])).toBe("fields");
  });

  it("suggests nothing for an unrelated word", () => {
    expect(closestMatch("banana", ["create", "read", "update", "delete"])).toBeUndefined();
  });
});
