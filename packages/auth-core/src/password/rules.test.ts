import { describe, expect, it } from "vitest";
import { COMMON_PASSWORD_PROBLEM, isComparable, passwordProblem, passwordScore } from "./rules.js";

describe("password rules", () => {
  it.each([
    ["correct horse battery", undefined],
    ["x7#Lq9!vR2", undefined],
    ["Tr0ub4dour&3 horse", undefined],
    ["Grüße aus Köln, mein Lieber", undefined],
    // 72 bytes: all bcrypt reads.
    [`${"x7#Lq9!vR2".repeat(7)}ab`, undefined],
    ["ä1ö2ü3ß4", undefined],
    ["1234567", "at least 8 characters"],
    // Eight bytes but four characters: people count characters.
    ["éöüß", "at least 8 characters"],
    ["x".repeat(73), "at most 72 bytes long in UTF-8"],
    ["é".repeat(37), "at most 72 bytes"],
    ["abc\u0000defgh", "NUL"],
  ])("%j → %s", (password, problem) => {
    const found = passwordProblem(password);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it.each(["password", "12345678", "Password1", "qwertyuiop", "iloveyou", "aaaaaaaa", "abcdefgh", "1q2w3e4r"])(
    "refuses %j, one of the most common passwords or as easy to guess",
    (password) => {
      expect(passwordScore(password)).toBe(0);
      expect(passwordProblem(password)).toBe(COMMON_PASSWORD_PROBLEM);
    },
  );

  it("scores from 0 to 4, a long passphrase highest", () => {
    expect(passwordScore("password")).toBe(0);
    expect(passwordScore("correct horse battery staple")).toBe(4);
    // However long: the estimate reads a bounded prefix.
    const started = performance.now();
    passwordScore("ab".repeat(5_000));
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("only lets bcrypt compare what it would not truncate", () => {
    expect(isComparable("x".repeat(72))).toBe(true);
    expect(isComparable("x".repeat(73))).toBe(false);
  });
});
