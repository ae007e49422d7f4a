import { describe, expect, test } from "vitest";
import { afterSignIn, DEFAULT_AFTER_SIGN_IN, signInPath } from "./next-path.js";

describe("afterSignIn", () => {
  test.each(["/dashboard", "/dashboard?tab=2&x=%2F", "/a/b#c", "/"])("keeps the path %s", (path) => {
    expect(afterSignIn(path)).toBe(path);
  });

  test.each([
    null,
    undefined,
    "",
    "dashboard",
    "//evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/\tevil",
    "/\n/evil.example",
    " /dashboard",
    "/..//evil.example",
    "/%2e%2e//evil.example",
    "/a/..//evil.example",
  ])("sends %j to the profile", (next) => {
    expect(afterSignIn(next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });
});

describe("signInPath", () => {
  test("carries the page back, encoded", () => {
    expect(signInPath("/dashboard?tab=2")).toBe("/login?next=%2Fdashboard%3Ftab%3D2");
  });

  test("leaves out a path that could leave the origin", () => {
    expect(signInPath("//evil.example")).toBe("/login");
    expect(signInPath(null)).toBe("/login");
  });
});
