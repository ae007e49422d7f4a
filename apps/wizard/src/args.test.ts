import { describe, expect, it } from "vitest";
import { parseWizardArgs, unknownOptionMessage } from "./args.js";

describe("parseWizardArgs", () => {
  it("defaults to the current folder with every question open", () => {
    expect(parseWizardArgs([])).toEqual({
      kind: "run",
      dir: ".",
      flags: { disabledEndpoints: [] },
      yes: false,
      dryRun: false,
      noInstall: false,
      keepStart: false,
    });
  });

  it("reads every answer flag", () => {
    const args = parseWizardArgs([
      "app",
      "--type",
      "jwt",
      "--entity",
      "Member",
      "--roles",
      "Admin,Editor, Reader",
      "--default-role",
      "Reader",
      "--no-register",
      "--no-setup",
      "--yes",
      "--dry-run",
      "--no-install",
      "--keep-start",
    ]);
    expect(args).toEqual({
      kind: "run",
      dir: "app",
      flags: {
        type: "jwt",
        entity: "Member",
        roles: ["Admin", "Editor", "Reader"],
        defaultRole: "Reader",
        disabledEndpoints: ["register", "setup"],
      },
      yes: true,
      dryRun: true,
      noInstall: true,
      keepStart: true,
    });
  });

  it("reads --verify-email, --no-verify-email and --no-password-reset", () => {
    expect(parseWizardArgs(["--verify-email"])).toMatchObject({ kind: "run", flags: { verifyEmail: true, disabledEndpoints: [] } });
    expect(parseWizardArgs(["--no-verify-email", "--no-password-reset"])).toMatchObject({
      kind: "run",
      flags: { verifyEmail: false, disabledEndpoints: ["passwordReset"] },
    });
    expect(parseWizardArgs([]).kind === "run" && "verifyEmail" in (parseWizardArgs([]) as { flags: object }).flags).toBe(false);
    expect(parseWizardArgs(["--verify-email", "--no-verify-email"]).kind).toBe("error");
  });

  it("reads --mfa-required and --no-mfa, which contradict each other", () => {
    expect(parseWizardArgs(["--mfa-required", "Admin"])).toMatchObject({ kind: "run", flags: { mfa: ["Admin"] } });
    expect(parseWizardArgs(["--mfa-required", "Admin, Editor"])).toMatchObject({ kind: "run", flags: { mfa: ["Admin", "Editor"] } });
    expect(parseWizardArgs(["--mfa-required="])).toMatchObject({ kind: "run", flags: { mfa: [] } });
    expect(parseWizardArgs(["--no-mfa"])).toMatchObject({ kind: "run", flags: { mfa: "off" } });
    expect(parseWizardArgs(["--mfa-required", "Admin", "--no-mfa"])).toEqual({
      kind: "error",
      message: "--mfa-required and --no-mfa contradict each other",
    });
    expect(parseWizardArgs(["--mfa-required", "Admin,2nd"])).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^--mfa-required: '2nd' is not a valid role name/),
    });
  });

  it("reads --providers: presets, in the order listed; an empty list for none", () => {
    expect(parseWizardArgs(["--providers", "google,github"])).toMatchObject({ kind: "run", flags: { providers: ["google", "github"] } });
    expect(parseWizardArgs(["--providers", "github, gitlab google"])).toMatchObject({
      kind: "run",
      flags: { providers: ["github", "gitlab", "google"] },
    });
    expect(parseWizardArgs(["--providers="])).toMatchObject({ kind: "run", flags: { providers: [] } });
    expect(parseWizardArgs(["--type", "none", "--providers", ""])).toMatchObject({ kind: "run", flags: { type: "none", providers: [] } });
    expect("providers" in (parseWizardArgs(["--type", "jwt"]) as { flags: object }).flags).toBe(false);
  });

  it("refuses --providers with an unknown provider, one listed twice, one only domain.yaml can declare, or --type none", () => {
    expect(parseWizardArgs(["--providers", "google,gitbub"])).toEqual({
      kind: "error",
      message: `--providers: 'gitbub' is not a provider the wizard adds (did you mean 'github'?); use google, gitlab, github, or "" for none`,
    });
    expect(parseWizardArgs(["--providers", "facebook"])).toEqual({
      kind: "error",
      message: `--providers: 'facebook' is not a provider the wizard adds; use google, gitlab, github, or "" for none`,
    });
    expect(parseWizardArgs(["--providers", "google,google"])).toEqual({ kind: "error", message: "--providers: 'google' is listed twice" });
    expect(parseWizardArgs(["--providers", "microsoft"])).toMatchObject({
      kind: "error",
      message: expect.stringMatching(
        /^--providers: 'microsoft' needs tenant, which only domain\.yaml can say: declare it under auth\.providers/,
      ),
    });
    expect(parseWizardArgs(["--providers", "oidc"])).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^--providers: 'oidc' needs issuer, which only domain\.yaml can say/),
    });
    expect(parseWizardArgs(["--type", "none", "--providers", "google"])).toEqual({
      kind: "error",
      message: "--type none and --providers contradict each other: under auth.type none nobody signs in",
    });
    expect(parseWizardArgs(["--providers"])).toMatchObject({ kind: "error" });
  });

  it('reads --organizations: the roles inside an organization, in the order listed; none for "" and --no-organizations', () => {
    expect(parseWizardArgs(["--organizations", "Owner,Manager,Member"])).toMatchObject({
      kind: "run",
      flags: { organizations: ["Owner", "Manager", "Member"] },
    });
    expect(parseWizardArgs(["--organizations", "Lead, Owner Guest"])).toMatchObject({
      kind: "run",
      flags: { organizations: ["Lead", "Owner", "Guest"] },
    });
    expect(parseWizardArgs(["--organizations="])).toMatchObject({ kind: "run", flags: { organizations: [] } });
    expect(parseWizardArgs(["--no-organizations"])).toMatchObject({ kind: "run", flags: { organizations: [] } });
    expect(parseWizardArgs(["--type", "none", "--no-organizations"])).toMatchObject({
      kind: "run",
      flags: { type: "none", organizations: [] },
    });
    // Without either, the question is open (and --yes keeps the file's).
    expect("organizations" in (parseWizardArgs(["--type", "jwt"]) as { flags: object }).flags).toBe(false);
  });

  it("refuses --organizations with --type none, or with --no-organizations", () => {
    expect(parseWizardArgs(["--type", "none", "--organizations", "Owner"])).toEqual({
      kind: "error",
      message: "--type none and --organizations contradict each other: under auth.type none nobody signs in, so nobody is a member",
    });
    expect(parseWizardArgs(["--organizations", "Owner", "--no-organizations"])).toEqual({
      kind: "error",
      message: "--organizations and --no-organizations contradict each other",
    });
    expect(parseWizardArgs(["--organizations"])).toMatchObject({ kind: "error" });
    expect(parseWizardArgs(["--organisations", "Owner"])).toEqual({
      kind: "error",
      message: "unknown option --organisations (did you mean --organizations?)",
    });
  });

  it("accepts an empty default role and short flags", () => {
    const args = parseWizardArgs(["-y", "--default-role="]);
    expect(args).toMatchObject({ kind: "run", yes: true, flags: { defaultRole: "" } });
  });

  it("answers help and version before anything else", () => {
    expect(parseWizardArgs(["--type", "x", "--help"])).toEqual({ kind: "help" });
    expect(parseWizardArgs(["-v"])).toEqual({ kind: "version" });
  });

  it("reports bad usage with a message", () => {
    expect(parseWizardArgs(["--type", "cookie"])).toEqual({
      kind: "error",
      message: "auth.type 'cookie' is planned but not implemented; use jwt or none",
    });
    expect(parseWizardArgs(["--roles", "Admin,1x"])).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^--roles: '1x' is not a valid role name/),
    });
    expect(parseWizardArgs(["--colour"])).toEqual({ kind: "error", message: "unknown option --colour" });
    expect(parseWizardArgs(["a", "b"])).toMatchObject({ kind: "error", message: "expected at most one folder, got: a b" });
    expect(parseWizardArgs(["--type"])).toMatchObject({ kind: "error" });
  });

  it("names an unknown option as typed, with the closest known one", () => {
    expect(parseWizardArgs(["--typo"])).toEqual({ kind: "error", message: "unknown option --typo (did you mean --type?)" });
    expect(parseWizardArgs(["my-app", "--dryrun"])).toEqual({
      kind: "error",
      message: "unknown option --dryrun (did you mean --dry-run?)",
    });
    expect(parseWizardArgs(["--no-regster"])).toEqual({
      kind: "error",
      message: "unknown option --no-regster (did you mean --no-register?)",
    });
    expect(unknownOptionMessage("-Y")).toBe("unknown option -Y (did you mean -y?)");
    expect(unknownOptionMessage("-q")).toBe("unknown option -q");
    expect(unknownOptionMessage("--everything")).toBe("unknown option --everything");
  });
});
