import { describe, expect, it } from "vitest";
import { emailProblem, normalizeEmail } from "./email.js";

describe("emails", () => {
  it("normalizes case, spacing and compatibility forms", () => {
    expect(normalizeEmail("  Alice@X.io ")).toBe("alice@x.io");
    expect(normalizeEmail("ａｌｉｃｅ@ｘ.io")).toBe("alice@x.io");
  });

  it.each([
    ["alice@x.io", undefined],
    ["a@b.c", undefined],
    ["alice", "exactly one @"],
    ["a@b@c.io", "exactly one @"],
    ["@x.io", "before the @"],
    ["alice@x", "dot"],
    ["al ice@x.io", "spaces"],
    ["al\u0001ice@x.io", "control"],
    ["admin@x.io\u200b", "invisible"],
    ["ad\u200bmin@x.io", "invisible"],
    ["admin@x\u202e.io", "invisible"],
    ["ad\u00admin@x.io", "invisible"],
    ["ad\u2060min@x.io", "invisible"],
    [`${"a".repeat(255)}@x.io`, "at most"],
  ])("%j → %s", (email, problem) => {
    const found = emailProblem(email);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
