import { describe, expect, it } from "vitest";
import { AUTH_ITEM_PAGES, AUTH_PAGES, AUTH_SECTION_PAGES } from "../config/vocabulary.js";
import { contentSecurityPolicy, createNonce, isAuthPage, securityHeaders } from "./security-headers.js";

/** The policy as a map from directive to its sources. */
function directivesOf(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((directive) => {
      const [name = "", ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe("isAuthPage", () => {
  it("is true for each auth page, with or without a trailing slash, and for nothing else", () => {
    const itemPages = new Set(AUTH_ITEM_PAGES.map((page) => `/${page}`));
    const sectionPages = new Set(AUTH_SECTION_PAGES.map((page) => `/${page}`));
    for (const page of AUTH_PAGES) {
      expect(isAuthPage(page), page).toBe(true);
      expect(isAuthPage(`${page}/`), `${page}/`).toBe(true);
      expect(isAuthPage(`${page}/x`), `${page}/x`).toBe(itemPages.has(page) || sectionPages.has(page));
      expect(isAuthPage(`${page}/x/y`), `${page}/x/y`).toBe(sectionPages.has(page));
    }
    for (const other of ["/", "/api/user/me", "/login-help", "/about", "/about/x", "/orgs-x/y", "/admin-x/y", "/administrators/x"])
      expect(isAuthPage(other), other).toBe(false);
  });

  it("is true for an item of an item page: an organization's /orgs/<id>", () => {
    expect(isAuthPage("/orgs/0b0d4c5e")).toBe(true);
    expect(isAuthPage("/orgs/0b0d4c5e/")).toBe(true);
    expect(isAuthPage("/orgs//")).toBe(false);
  });

  it("is true for every page of a section: the admin's /admin/users/<id> and /admin/records/<segment>/<id>", () => {
    expect(isAuthPage("/admin/users")).toBe(true);
    expect(isAuthPage("/admin/users/0b0d4c5e")).toBe(true);
    expect(isAuthPage("/admin/records/post/0b0d4c5e/")).toBe(true);
    expect(isAuthPage("/admin//")).toBe(false);
  });
});

describe("createNonce", () => {
  it("gives 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("contentSecurityPolicy", () => {
  const nonce = createNonce();

  it("runs only scripts that carry the nonce, and what they load", () => {
    const directives = directivesOf(contentSecurityPolicy({ nonce }));
    expect(directives.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expect(directives.get("style-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(directives.get("default-src")).toEqual(["'self'"]);
  });

  it("allows no plugins, no <base>, forms only to this origin and no framing", () => {
    const directives = directivesOf(contentSecurityPolicy({ nonce }));
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    expect(directives.get("form-action")).toEqual(["'self'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.has("upgrade-insecure-requests")).toBe(false);
  });

  it("allows eval and inline styles only in development", () => {
    const directives = directivesOf(contentSecurityPolicy({ nonce, development: true }));
    expect(directives.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", "'unsafe-eval'"]);
    expect(directives.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(contentSecurityPolicy({ nonce, development: false })).not.toContain("unsafe");
  });

  it("refuses a nonce that is short or could break out of the header", () => {
    expect(() => contentSecurityPolicy({ nonce: "short" })).toThrow(/nonce/);
    expect(() => contentSecurityPolicy({ nonce: `${nonce}'; script-src *` })).toThrow(/nonce/);
    expect(() => contentSecurityPolicy({ nonce: `${nonce}\r\nx-evil: 1` })).toThrow(/nonce/);
  });
});

describe("securityHeaders", () => {
  const nonce = createNonce();

  it("sets the policy, nosniff and no referrer; no HSTS over http", () => {
    expect(securityHeaders({ nonce, appUrl: "http://localhost:3000" })).toEqual({
      "content-security-policy": contentSecurityPolicy({ nonce }),
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    });
    expect(securityHeaders({ nonce })).not.toHaveProperty("strict-transport-security");
    expect(securityHeaders({ nonce, appUrl: "not a url" })).not.toHaveProperty("strict-transport-security");
  });

  it("adds Strict-Transport-Security and upgrades requests when the app is served over https", () => {
    const headers = securityHeaders({ nonce, appUrl: "https://app.example.com" });
    expect(headers["strict-transport-security"]).toBe("max-age=31536000");
    expect(directivesOf(headers["content-security-policy"] ?? "").has("upgrade-insecure-requests")).toBe(true);
  });
});
