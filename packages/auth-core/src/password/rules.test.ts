import { describe, expect, it } from "vitest";
import { isComparable, passwordProblem } from "./rules.js";

describe("password rules", () => {
  it.each([
    ["12345678", undefined],
    ["x".repeat(72), undefined],
    ["é".repeat(36), undefined],
    ["1234567", "at least"],
    ["x".repeat(73), "at most"],
    ["é".repeat(37), "at most"],
    ["abc\u0000defgh", "NUL"],
  ])("%j → %s", (password, problem) => {
    const found = passwordProblem(password);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it("only lets bcrypt compare what it would not truncate", () => {
    expect(isComparable("x".repeat(72))).toBe(true);
    expect(isComparable("x".repeat(73))).toBe(false);
  });
});
