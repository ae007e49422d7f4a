import { apiKeyScopes } from "@domain-auth/core/policy";
import { describe, expect, test } from "vitest";
import { describeScopes, scopesByEntity } from "../lib/domain-auth/api-keys";

describe("the API key helpers of the pages", () => {
  test("group a domain's scopes by entity, operations in the pages' order", () => {
    const scopes = apiKeyScopes([{ segment: "user" }, { segment: "blog-post" }]);
    expect(scopesByEntity([...scopes].reverse())).toEqual([
      ["blog-post", ["blog-post:read", "blog-post:create", "blog-post:update", "blog-post:delete"]],
      ["user", ["user:read", "user:create", "user:update", "user:delete"]],
    ]);
  });

  test("say what a key may do", () => {
    expect(describeScopes(null)).toBe("Everything the role allows");
    expect(describeScopes([])).toBe("Only the profile (me)");
    expect(describeScopes(["post:read", "post:create"])).toBe("post:read, post:create");
  });
});
