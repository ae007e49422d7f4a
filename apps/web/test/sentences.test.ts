import type { ErrorBody } from "@domain-auth/core/policy";
import { describe, expect, test } from "vitest";
import { formErrorSummary, issuesByField } from "../lib/domain-auth/api";
import { foldDocumentAnswer, foldHeadIntoGet, HEAD_NOTE, type SwaggerAnswer } from "../lib/domain-auth/api-reference";
import { withoutFixed } from "../lib/domain-auth/form-errors";
import { asSentence, fieldSentence } from "../lib/domain-auth/sentences";

const INVALID: ErrorBody = {
  code: "INVALID_BODY",
  message: "The body is not valid",
  issues: [
    { path: ["email"], message: "is required" },
    { path: ["password"], message: "must be at least 8 characters long" },
    { path: ["currentPassword"], message: "is wrong" },
    { path: ["code"], message: "The code is wrong, expired or already used" },
  ],
};

describe("error messages are sentences", () => {
  test("capitalised, ending with a full stop (one of their own kept)", () => {
    expect(asSentence("invalid email or password")).toBe("Invalid email or password.");
    expect(asSentence("Too many failed sign-in attempts; try again later")).toBe("Too many failed sign-in attempts; try again later.");
    expect(asSentence("Please correct the fields marked below.")).toBe("Please correct the fields marked below.");
    expect(asSentence("Saved!")).toBe("Saved!");
    expect(asSentence("  ")).toBe("");
  });

  test("an input's predicate names the input; a sentence of its own stays", () => {
    expect(fieldSentence("Title", "is required")).toBe("Title is required.");
    expect(fieldSentence("Code", "The code is wrong, expired or already used")).toBe("The code is wrong, expired or already used.");
  });

  test("the API's issues, beside their inputs and above the form", () => {
    expect(issuesByField(INVALID)).toEqual({
      email: "Email is required.",
      password: "Password must be at least 8 characters long.",
      currentPassword: "Current password is wrong.",
      code: "The code is wrong, expired or already used.",
    });
    expect(formErrorSummary(INVALID, ["email", "password", "currentPassword", "code"])).toBe("Please correct the fields marked below.");
    expect(formErrorSummary(INVALID, ["email"])).toBe(
      "The body is not valid. Password must be at least 8 characters long. Current password is wrong. The code is wrong, expired or already used.",
    );
    expect(formErrorSummary({ code: "INVALID_CREDENTIALS", message: "Invalid email or password" }, [])).toBe("Invalid email or password.");
  });

  test("an input's issue goes once the input changed; the error goes with the last of them", () => {
    const twoIssues: ErrorBody = { ...INVALID, issues: INVALID.issues?.slice(0, 2) };
    expect(withoutFixed(twoIssues, new Set(["email"]))?.issues).toEqual([
      { path: ["password"], message: "must be at least 8 characters long" },
    ]);
    expect(withoutFixed(twoIssues, new Set(["email", "password"]))).toBeNull();
    const attempt: ErrorBody = { code: "INVALID_CREDENTIALS", message: "Invalid email or password" };
    expect(withoutFixed(attempt, new Set(["email"]))).toBe(attempt);
  });
});

describe("the API reference's document", () => {
  const document = {
    openapi: "3.1.0",
    paths: {
      "/api/post": { get: { operationId: "listPost", description: "Lists posts." }, head: { operationId: "listPostHead" }, post: {} },
      "/api/user/me": { get: { operationId: "me" }, head: { operationId: "meHead" } },
      "/api/odd": { head: { operationId: "onlyHead" } },
    },
  };

  test("folds each HEAD into its GET, which says so; a HEAD alone stays", () => {
    const folded = foldHeadIntoGet(document);
    expect(Object.keys(folded.paths["/api/post"])).toEqual(["get", "post"]);
    expect(folded.paths["/api/post"].get).toEqual({ operationId: "listPost", description: `Lists posts.\n\n${HEAD_NOTE}` });
    expect(folded.paths["/api/user/me"]).toEqual({ get: { operationId: "me", description: HEAD_NOTE } });
    expect(folded.paths["/api/odd"]).toEqual({ head: { operationId: "onlyHead" } });
  });

  test("changes the document Swagger UI loads from this origin, and no other answer", () => {
    const text = JSON.stringify(document);
    const answer: SwaggerAnswer = { url: "http://app.test/api/openapi.json", text };
    const loaded = foldDocumentAnswer(answer, "http://app.test");
    expect(Object.keys(JSON.parse(loaded.text ?? "{}").paths["/api/user/me"])).toEqual(["get"]);
    expect(loaded.body).toEqual(JSON.parse(loaded.text ?? "{}"));
    for (const url of ["http://app.test/api/post", "http://elsewhere.test/api/openapi.json"])
      expect(foldDocumentAnswer({ url, text }, "http://app.test").text).toBe(text);
    expect(foldDocumentAnswer({ url: "/api/openapi.json", text: "not json" }, "http://app.test").text).toBe("not json");
  });
});
