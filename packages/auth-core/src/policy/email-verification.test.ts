import { describe, expect, it } from "vitest";
import { checkEmailConfirmed, isInvitation, vouchesForEmail } from "./email-verification.js";

const AUTH = { setupRole: "Admin" };
const ADMIN = { id: "a", role: "Admin" };
const EDITOR = { id: "e", role: "Editor" };

describe("e-mail verification rules (docs/mail.md)", () => {
  it("invitations: a setup-role caller, no password in the body, and e-mail that can be sent", () => {
    expect(isInvitation(AUTH, ADMIN, { email: "x@y.io" }, { mailAvailable: true })).toBe(true);
    expect(isInvitation(AUTH, ADMIN, { email: "x@y.io", password: "p" }, { mailAvailable: true })).toBe(false);
    expect(isInvitation(AUTH, ADMIN, { email: "x@y.io" }, { mailAvailable: false })).toBe(false);
    expect(isInvitation(AUTH, EDITOR, { email: "x@y.io" }, { mailAvailable: true })).toBe(false);
    expect(isInvitation(AUTH, null, { email: "x@y.io" }, { mailAvailable: true })).toBe(false);
  });

  it("a setup-role caller vouches for the address of a user it gives a password, nobody else does", () => {
    expect(vouchesForEmail(AUTH, ADMIN, { invitation: false })).toBe(true);
    expect(vouchesForEmail(AUTH, ADMIN, { invitation: true })).toBe(false);
    expect(vouchesForEmail(AUTH, EDITOR, { invitation: false })).toBe(false);
    expect(vouchesForEmail(AUTH, null, { invitation: false })).toBe(false);
  });

  it("under verifyEmail, sign-in needs an address confirmed at some time", () => {
    expect(checkEmailConfirmed({ verifyEmail: true }, { everVerified: false })).toMatchObject({
      allowed: false,
      status: 403,
      code: "EMAIL_NOT_VERIFIED",
    });
    expect(checkEmailConfirmed({ verifyEmail: true }, { everVerified: true }).allowed).toBe(true);
    expect(checkEmailConfirmed({ verifyEmail: false }, { everVerified: false }).allowed).toBe(true);
  });
});
