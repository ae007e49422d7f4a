import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { validateDomainText } from "@domain-auth/core/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INSTANT_LINE } from "./protect-a-page.js";
import { starterDomainText } from "./starter.js";
import { snapshotFiles } from "./testing/file-snapshot.js";
import { KEY, startWizard } from "./testing/virtual-terminal.js";
import { runWizard } from "./wizard.js";

const BLOG = `# A blog, with comments everywhere.
name: blog                      # identifier; used as the JWT issuer
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      name: string              # shorthand for { type: string }
      role: { type: string, default: Reader }   # the schema default role
    permissions:
      read: [Admin, "@Owner"]
      update: [Admin, "@Owner"]

  # Posts belong to their author.
  Post:
    owner: author               # field that holds the owning user's id (for @Owner)
    fields:
      title: { type: string, required: true, maxLength: 200 }
      author: { type: ref, to: User }
    permissions:
      create: [Editor, Admin]
      read: ["*"]
      update: ["@Owner", Admin]
auth:
  type: jwt   # or none
  entity: User                  # optional: detected when omitted
  roles: [Admin, Editor, Reader]
  endpoints: { login: true, register: true, me: true, setup: true }
# the end
`;

const ROUTE = "app/api/[...path]/route.ts";
/** The organizations question, and the question of their roles. */
const Q = "Do the app's records belong to teams or organizations?";
const R = "Which roles can members hold in an organization?";
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "wizard-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = (path: string) => readFile(join(dir, path), "utf8");

/** The lines of a text outside its auth block (from `auth:` to the next unindented line). */
function outsideAuthBlock(text: string): string {
  const lines = text.split("\n");
  const start = lines.indexOf("auth:");
  const end = lines.findIndex((line, index) => index > start && /^\S/.test(line));
  return [...lines.slice(0, start), ...lines.slice(end)].join("\n");
}

/** The wizard in a virtual terminal; these tests install nothing (the end-to-end tests in test/ do). */
const start = (cwd: string, argv: readonly string[] = [], env: Record<string, string> = {}) =>
  startWizard(cwd, [...argv, "--no-install"], env);

async function unattended(argv: readonly string[], env: Record<string, string> = {}) {
  const output = new PassThrough();
  const errorOutput = new PassThrough();
  let out = "";
  let err = "";
  output.on("data", (chunk: Buffer) => {
    out += chunk;
  });
  errorOutput.on("data", (chunk: Buffer) => {
    err += chunk;
  });
  const code = await runWizard({ cwd: dir, argv: [...argv, "--no-install"], input: new PassThrough(), output, errorOutput, env });
  return { code, out, err };
}

describe("interactive", () => {
  it("sets up a fresh folder from the starter", async () => {
    const session = start(dir);
    await session.answer("has no domain.yaml", KEY.enter);
    await session.answer("How do callers authenticate?", KEY.enter);
    await session.answer("Which entity holds the users?", KEY.enter);
    await session.answer("Which roles can users hold?", KEY.enter);
    await session.answer("Which role does register give", KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);

    const domain = await read("domain.yaml");
    expect(domain).toBe(`${starterDomainText(dir.split("/").at(-1)?.toLowerCase() ?? "")}  mfa: { required: [Admin] }\n`);
    expect(validateDomainText(domain).model?.auth).toMatchObject({ defaultRole: "Member", mfa: { required: ["Admin"] } });
    expect(await read(ROUTE)).toContain('import { authFromEnv } from "@domain-auth/core";');
    expect(await read(".env.local")).toMatch(
      /^AUTH_SECRET=[A-Za-z0-9_-]{43}\n\n# E-mail for password reset[\s\S]*\n# SMTP_URL=[^\n]*\n# APP_URL=[^\n]*\n# MAIL_FROM=[^\n]*\n$/,
    );
    expect((await stat(join(dir, ".env.local"))).mode & 0o777).toBe(0o600);
    expect(await read(".gitignore")).toBe("node_modules/\n.next/\nnext-env.d.ts\n*.tsbuildinfo\n.env.local\n.data/\n");
    const manifest = JSON.parse(await read("package.json"));
    expect(manifest.scripts.start).toBe("node server.mjs");
    expect(Object.keys(manifest.dependencies)).toEqual([
      "@domain-auth/core",
      "@next/env",
      "next",
      "react",
      "react-dom",
      "swagger-ui-dist",
      "@simplewebauthn/browser",
      "better-sqlite3",
    ]);
    expect(JSON.parse(await read("tsconfig.json")).compilerOptions.paths).toEqual({ "@/*": ["./*"] });
    expect(await read("next.config.ts")).toContain('serverExternalPackages: ["@domain-auth/core"]');
    expect(session.screen()).toContain("Next steps");
    expect(session.screen()).toContain("npm install ");
    expect(session.screen()).toContain("open /setup");
    expect(session.screen()).toContain("Second factors: required for Admin, who add an authenticator app or a passkey");
  });

  it("offers the least privileged role for register, the last listed, and says so", async () => {
    const session = start(dir);
    await session.answer("has no domain.yaml", KEY.enter);
    await session.answer("How do callers authenticate?", KEY.enter);
    await session.answer("Which entity holds the users?", KEY.enter);
    await session.answer("Which roles can users hold?", KEY.ctrlU, "Admin, Editor, Reader", KEY.enter);
    await session.waitFor("● Reader (least privileged, the last listed)");
    session.type(KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(validateDomainText(await read("domain.yaml")).model?.auth).toMatchObject({
      roles: ["Admin", "Editor", "Reader"],
      defaultRole: "Reader",
    });
  });

  it("changes an existing file and keeps every comment outside the auth block byte for byte", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir);
    await session.answer("How do callers authenticate?", KEY.enter);
    await session.answer("Which entity holds the users?", KEY.enter);
    await session.answer("Which roles can users hold?", ", Guest", KEY.enter);
    await session.answer("Which role does register give", KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.down, KEY.down, KEY.space, KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.waitFor("domain.yaml");
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);

    const result = await read("domain.yaml");
    expect(outsideAuthBlock(result)).toBe(outsideAuthBlock(BLOG));
    expect(result).toContain(
      "auth:\n  type: jwt   # or none\n  entity: User                  # optional: detected when omitted\n  roles: [Admin, Editor, Reader, Guest]\n  endpoints: { login: true, register: true, me: false, setup: true }\n# the end\n",
    );
    expect(session.screen()).toContain("+   roles: [Admin, Editor, Reader, Guest]");
  });

  it("changes the default role on the auth entity's role field only", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir);
    await session.answer("How do callers authenticate?", KEY.enter);
    await session.answer("Which entity holds the users?", KEY.enter);
    await session.answer("Which roles can users hold?", KEY.enter);
    await session.answer("(Admin, the setup role, is never given)", KEY.up, KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG.replace("default: Reader }", "default: Editor }"));
  });

  it("asks about second factors, starting from what the file says", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir, ["--type", "jwt", "--entity", "User", "--roles", "Admin,Editor,Reader", "--default-role", "Reader"]);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.waitFor("Second factors (authenticator app, passkeys)");
    await session.waitFor("Required for Admin (recommended)");
    await session.waitFor("Optional for everyone");
    // The file has no auth.mfa: "Optional for everyone" is the one selected; one up is Admin.
    session.type(KEY.up, KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    const result = await read("domain.yaml");
    expect(result).toBe(BLOG.replace("setup: true }\n", "setup: true }\n  mfa: { required: [Admin] }\n"));
    expect(session.screen()).toContain("+   mfa: { required: [Admin] }");
  });

  it("offers the roles the file requires, keeps them on Enter, and turns second factors off", async () => {
    const listed = BLOG.replace("setup: true }\n", "setup: true }\n  mfa: { required: [Admin, Editor] }   # staff\n");
    await writeFile(join(dir, "domain.yaml"), listed);
    const flags = ["--type", "jwt", "--entity", "User", "--roles", "Admin,Editor,Reader", "--default-role", "Reader", "--no-me"];
    const keep = start(dir, flags);
    await keep.answer("Require users who register to confirm", KEY.enter);
    await keep.waitFor("Required for Admin, Editor");
    keep.type(KEY.enter);
    await keep.answer("Which providers may people sign in with?", KEY.enter);
    await keep.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await keep.answer("Write these changes?", KEY.enter);
    expect(await keep.done).toBe(0);
    const kept = await read("domain.yaml");
    expect(kept).toBe(listed.replace("me: true", "me: false"));

    const off = start(dir, flags);
    await off.answer("Require users who register to confirm", KEY.enter);
    await off.answer("Required for Admin, Editor", KEY.down, KEY.down, KEY.enter);
    await off.answer("Which providers may people sign in with?", KEY.enter);
    await off.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await off.answer("Write these changes?", KEY.enter);
    expect(await off.done).toBe(0);
    expect(await read("domain.yaml")).toBe(
      kept.replace("mfa: { required: [Admin, Editor] }   # staff", "mfa: { totp: false, passkeys: false }   # staff"),
    );
  });

  it("does not ask about second factors when a flag answers it", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir, [
      "--type",
      "jwt",
      "--entity",
      "User",
      "--roles",
      "Admin,Editor,Reader",
      "--default-role",
      "Reader",
      "--no-mfa",
    ]);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(session.screen()).not.toContain("Second factors (authenticator app, passkeys)");
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.mfa).toEqual({ totp: false, passkeys: false, required: [] });
  });

  it("asks which providers people may sign in with, starting from the presets the file declares, and keeps its others", async () => {
    const declared = BLOG.replace(
      "setup: true }\n",
      "setup: true }\n  providers:\n    acme: { type: oidc, issuer: https://id.acme.example, name: Acme }\n    github: { type: github }\n",
    );
    await writeFile(join(dir, "domain.yaml"), declared);
    const flags = ["--type", "jwt", "--entity", "User", "--roles", "Admin,Editor,Reader", "--default-role", "Reader"];
    const session = start(dir, [...flags, "--no-verify-email", "--mfa-required="]);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.waitFor("Which providers may people sign in with? (acme stays as domain.yaml declares it)");
    await session.waitFor("◻ Microsoft (needs its tenant: declare it in domain.yaml)");
    await session.waitFor("◼ GitHub");
    // On Google, the first: select it too.
    session.type(KEY.space, KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(await read("domain.yaml")).toBe(
      declared.replace("github: { type: github }\n", "github: { type: github }\n    google: { type: google }\n"),
    );
    const env = await read(".env.local");
    for (const id of ["ACME", "GITHUB", "GOOGLE"]) expect(env).toMatch(new RegExp(`^AUTH_PROVIDER_${id}_CLIENT_ID=\n`, "m"));
    expect(session.screen()).toContain("Google  http://localhost:3000/api/user/oauth/google/callback");
    expect(session.screen()).toContain("Acme    http://localhost:3000/api/user/oauth/acme/callback");
  });

  it("does not ask about providers when a flag answers it", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir, ["--type", "jwt", "--entity", "User", "--roles", "Admin,Editor,Reader", "--default-role", "Reader"]);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.down, KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.ctrlC);
    expect(await session.done).toBe(130);

    const flagged = start(dir, [
      "--type",
      "jwt",
      "--entity",
      "User",
      "--roles",
      "Admin,Editor,Reader",
      "--default-role",
      "Reader",
      "--providers",
      "gitlab",
      "--no-verify-email",
      "--mfa-required=",
    ]);
    await flagged.answer("Which endpoints should exist?", KEY.enter);
    await flagged.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await flagged.answer("Write these changes?", KEY.enter);
    expect(await flagged.done).toBe(0);
    expect(flagged.screen()).not.toContain("Which providers may people sign in with?");
    expect(await read("domain.yaml")).toContain("  providers: { gitlab: { type: gitlab } }\n");
  });

  it("asks whether records belong to organizations, and their roles, re-asking while the core refuses them", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const flags = ["--type", "jwt", "--entity", "User", "--default-role", "Reader", "--no-verify-email", "--mfa-required=", "--providers="];
    const session = start(dir, flags);
    await session.answer("Which roles can users hold?", KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.enter);
    // A file without auth.organizations starts on No; one up is Yes.
    await session.waitFor(Q);
    await session.answer("No", KEY.up, KEY.enter);
    await session.answer(R, ", Editor", KEY.enter);
    await session.waitFor("'Editor' is also a role of auth.roles: name organization roles apart");
    session.type(...Array.from({ length: ", Editor".length }, () => KEY.backspace), ", 2nd", KEY.enter);
    await session.waitFor("'2nd' is not a valid role name: use letters, digits and _, and do not start with a digit");
    session.type(KEY.ctrlU, KEY.enter);
    await session.waitFor("name at least one role");
    session.type("Owner, Member, Owner", KEY.enter);
    await session.waitFor("organization role 'Owner' is declared twice");
    session.type(KEY.ctrlU, "Owner, Manager, Member", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    const organized = BLOG.replace("setup: true }\n", "setup: true }\n  organizations: { roles: [Owner, Manager, Member] }\n");
    expect(await read("domain.yaml")).toBe(organized);
    expect(session.screen()).toContain("+   organizations: { roles: [Owner, Manager, Member] }");
    expect(session.screen()).toContain("Organizations: members hold Owner, Manager or Member;");
    expect(session.screen()).toContain("Pages: /orgs (yours, create one), /orgs/<id> (members, invitations).");

    // Asked again, it starts from the file: Yes, and its roles; No takes the block out.
    const again = start(dir, [...flags, "--roles", "Admin,Editor,Reader", "--no-me"]);
    await again.answer(Q, KEY.enter);
    await again.waitFor("Owner, Manager, Member");
    again.type(KEY.enter);
    await again.answer("Write these changes?", KEY.enter);
    expect(await again.done).toBe(0);
    expect(await read("domain.yaml")).toBe(organized.replace("me: true", "me: false"));
    const off = start(dir, [...flags, "--roles", "Admin,Editor,Reader", "--no-me"]);
    await off.answer(Q, KEY.down, KEY.enter);
    await off.answer("Write these changes?", KEY.enter);
    expect(await off.done).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG.replace("me: true", "me: false"));
  });

  it("asks only the roles when an entity is a tenant, and none of it with --organizations", async () => {
    const teams = `${BLOG.replace("  # Posts belong", "  Project:\n    tenant: true\n    fields:\n      title: string\n\n  # Posts belong")}  organizations:\n    roles: [Owner, Member]\n`;
    await writeFile(join(dir, "domain.yaml"), teams);
    const flags = ["--type", "jwt", "--entity", "User", "--roles", "Admin,Editor,Reader", "--default-role", "Reader", "--no-verify-email"];
    const session = start(dir, [...flags, "--mfa-required=", "--providers="]);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.waitFor("Project is a tenant entity (tenant: true): its records belong to an organization.");
    await session.answer(R, ", Guest", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(session.screen()).not.toContain(Q);
    expect(await read("domain.yaml")).toBe(teams.replace("roles: [Owner, Member]", "roles: [Owner, Member, Guest]"));
    expect(session.screen()).toContain("(so far: Project).");

    const flagged = start(dir, [...flags, "--mfa-required=", "--providers=", "--organizations", "Owner,Member"]);
    await flagged.answer("Which endpoints should exist?", KEY.enter);
    await flagged.answer("Write these changes?", KEY.enter);
    expect(await flagged.done).toBe(0);
    expect(flagged.screen()).not.toContain(R);
    expect(await read("domain.yaml")).toBe(teams);
  });

  it("re-asks for the roles of users while one takes the name of an organization role --organizations gives", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir, ["--type", "jwt", "--entity", "User", "--organizations", "Owner,Member"]);
    await session.answer("Which roles can users hold?", ", Owner", KEY.enter);
    await session.waitFor("--organizations: 'Owner' is also a role of auth.roles: name organization roles apart");
    session.type(KEY.ctrlU, "Admin, Editor, Reader", KEY.enter);
    await session.answer("Which role does register give", KEY.ctrlC);
    expect(await session.done).toBe(130);
    expect(await read("domain.yaml")).toBe(BLOG);
  });

  it("switches jwt to none", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir);
    await session.answer("How do callers authenticate?", KEY.down, KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG.replace("type: jwt   # or none", "type: none   # or none"));
    expect(session.screen()).not.toContain("Which entity holds the users?");
  });

  it("re-asks for roles while they are invalid, showing why", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const session = start(dir);
    await session.answer("How do callers authenticate?", KEY.enter);
    await session.answer("Which entity holds the users?", KEY.enter);
    await session.answer("Which roles can users hold?", ", 9lives", KEY.enter);
    await session.waitFor("'9lives' is not a valid role name: use letters, digits and _, not starting with a digit");
    session.type(...Array.from({ length: ", 9lives".length }, () => KEY.backspace), ", Reader", KEY.enter);
    await session.waitFor("'Reader' is listed twice");
    session.type(KEY.ctrlU, "Admin, Reader", KEY.enter);
    await session.waitFor("'Editor' is used in permissions; keep it in the list");
    session.type(KEY.ctrlU, "Admin, Editor, Reader", KEY.enter);
    await session.answer("Which role does register give", KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("unchanged  domain.yaml", KEY.down, KEY.enter);
    await session.waitFor("Nothing written.");
    expect(await session.done).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG);
  });

  it("offers to add missing credential fields to the chosen entity", async () => {
    await writeFile(
      join(dir, "domain.yaml"),
      "name: shop\nentities:\n  Customer:\n    fields:\n      email: string # sign-in\nauth:\n  type: none\n",
    );
    const session = start(dir);
    await session.answer("How do callers authenticate?", KEY.up, KEY.enter);
    await session.answer("Which entity holds the users?", KEY.enter);
    await session.answer("Add password to Customer?", KEY.enter);
    await session.answer("Which roles can users hold?", "Admin, Buyer", KEY.enter);
    await session.answer("Which role does register give", KEY.up, KEY.enter);
    await session.answer("Which endpoints should exist?", KEY.enter);
    await session.answer("Require users who register to confirm", KEY.enter);
    await session.answer("Second factors", KEY.enter);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(await read("domain.yaml")).toBe(
      "name: shop\nentities:\n  Customer:\n    fields:\n      email: string # sign-in\n      password: { type: string, required: true }\n      role: { type: string, default: Buyer }\nauth:\n  type: jwt\n  roles: [Admin, Buyer]\n",
    );
  });

  it("asks before overwriting a scaffolded file the user changed", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    await mkdir(join(dir, "app/api/[...path]"), { recursive: true });
    await writeFile(join(dir, ROUTE), "// mine\n");
    const session = start(dir, [
      "--type",
      "jwt",
      "--entity",
      "User",
      "--roles",
      "Admin,Editor,Reader",
      "--default-role",
      "Reader",
      "--no-me",
      "--no-verify-email",
      "--mfa-required",
      "Admin",
    ]);
    await session.answer("Which providers may people sign in with?", KEY.enter);
    await session.answer("Do the app's records belong to teams or organizations?", KEY.enter);
    await session.answer(`${ROUTE} differs from the template. Overwrite it?`, KEY.down, KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(await read(ROUTE)).toContain("authFromEnv");
    expect(await read("domain.yaml")).toContain("me: false");
    expect(await read("domain.yaml")).toContain("mfa: { required: [Admin] }");
  });

  it("reports a broken domain.yaml before the first question, writing nothing", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG.replace("email: { type: string,", "email: { type: strin,"));
    const before = await snapshotFiles(dir);
    const session = start(dir);
    await session.waitFor("domain.yaml has errors; fix them and run the wizard again.");
    expect(await session.done).toBe(1);
    expect(session.screen()).not.toContain("How do callers authenticate?");
    expect(session.errors()).toMatch(/^domain\.yaml:6:22 .*did you mean 'string'\?\)\n$/);
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  it("still asks when only the answers can fix the file's errors", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG.replace("roles: [Admin, Editor, Reader]", "roles: [Admin, Reader]"));
    const session = start(dir);
    await session.answer("How do callers authenticate?", KEY.ctrlC);
    expect(await session.done).toBe(130);
  });

  it("writes nothing when the user declines", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const before = await snapshotFiles(dir);
    const session = start(dir, ["--type", "none"]);
    await session.answer("Write these changes?", KEY.down, KEY.enter);
    await session.waitFor("Nothing written.");
    expect(await session.done).toBe(0);
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  describe("Ctrl-C at any prompt exits 130 and changes no file", () => {
    const steps = [
      "How do callers authenticate?",
      "Which entity holds the users?",
      "Which roles can users hold?",
      "Which role does register give",
      "Which endpoints should exist?",
      "Require users who register to confirm",
      "Second factors",
      "Which providers may people sign in with?",
      "Do the app's records belong to teams or organizations?",
      "differs from the template. Overwrite it?",
      "Write these changes?",
    ];
    for (const [index, step] of steps.entries()) {
      it(`at "${step}"`, async () => {
        await writeFile(join(dir, "domain.yaml"), BLOG);
        await mkdir(join(dir, "app/api/[...path]"), { recursive: true });
        await writeFile(join(dir, ROUTE), "// mine\n");
        const before = await snapshotFiles(dir);
        const session = start(dir);
        for (const earlier of steps.slice(0, index)) await session.answer(earlier, KEY.enter);
        await session.answer(step, KEY.ctrlC);
        expect(await session.done).toBe(130);
        expect(session.screen()).toContain("Cancelled; nothing was written.");
        expect(await snapshotFiles(dir)).toEqual(before);
      });
    }

    it('at "has no domain.yaml"', async () => {
      const session = start(dir);
      await session.answer("has no domain.yaml", KEY.ctrlC);
      expect(await session.done).toBe(130);
      expect(await readdir(dir)).toEqual([]);
    });
  });
});

describe("unattended", () => {
  it("exits 2 at once without a terminal unless --yes is given", async () => {
    const { code, err } = await unattended([]);
    expect(code).toBe(2);
    expect(err).toContain("--yes");
    expect(await readdir(dir)).toEqual([]);
  });

  it("treats CI as no terminal", async () => {
    const session = start(dir, [], { CI: "true" });
    expect(await session.done).toBe(2);
    expect(session.errors()).toContain("pass --yes");
  });

  it("sets up a fresh folder with the flags and defaults", async () => {
    const { code } = await unattended([
      "app",
      "--yes",
      "--type",
      "jwt",
      "--roles",
      "Owner,Staff,Guest",
      "--default-role",
      "Guest",
      "--no-register",
    ]);
    expect(code).toBe(0);
    const { model } = validateDomainText(await readFile(join(dir, "app/domain.yaml"), "utf8"));
    expect(model?.name).toBe("app");
    expect(model?.auth).toMatchObject({ roles: ["Owner", "Staff", "Guest"], setupRole: "Owner", defaultRole: "Guest" });
    expect(model?.auth?.endpoints).toEqual({
      login: true,
      register: false,
      me: true,
      setup: true,
      logout: true,
      refresh: true,
      sessions: true,
      passwordReset: true,
      verifyEmail: true,
    });
    expect(model?.auth?.verifyEmail).toBe(false);
    expect(await readFile(join(dir, "app", ROUTE), "utf8")).toContain("authFromEnv");
  });

  it("ends with cd only when the project is in another folder, and two lines that protect a page", async () => {
    for (const [folder, cd] of [
      ["new-app", "cd new-app"],
      [".", undefined],
      ["./", undefined],
    ] as const) {
      const { code, out } = await unattended([folder, "--yes"]);
      expect(code).toBe(0);
      // The note's lines without its right border.
      const steps = out
        .slice(out.indexOf("Next steps"))
        .split("\n")
        .map((line) => line.replace(/\s*│$/, ""))
        .join("\n");
      expect(/^│ {2}cd /m.test(steps), folder).toBe(cd !== undefined);
      if (cd) expect(steps).toContain(`│  ${cd}\n`);
      // A new app has no cacheComponents: the page needs no `instant` line.
      expect(steps).toContain(
        [
          "│  Protect a page of your own (currentUser and can too; see the docs):",
          "│    // app/dashboard/page.tsx",
          '│    import { requireUser } from "@domain-auth/core/next";',
          "│",
          "│    export default async function Dashboard() {",
          "│      const user = await requireUser(); // signed out: to /login, then back",
          "│      return <p>Signed in as {user.email}</p>;",
          "│    }",
          "│  In proxy.ts, for a 307 to /login or a 403 before it renders:",
          '│    const PROTECTED_PAGES: ProtectedPage[] = [{ path: "/dashboard" }];',
        ].join("\n"),
      );
      await rm(join(dir, "domain.yaml"), { force: true });
    }
  });

  it("shows the next steps after a failed install, naming the folder as typed", async () => {
    // No package manager on the PATH: the install fails at once, after the files are written.
    const env = { PATH: join(dir, "no-such-bin") };
    for (const [argv, folder] of [
      [["my-app"], "in my-app"],
      [[], "in this folder"],
    ] as const) {
      const cwd = argv.length > 0 ? dir : join(dir, "here");
      await mkdir(cwd, { recursive: true });
      const output = new PassThrough();
      let out = "";
      output.on("data", (chunk: Buffer) => {
        out += chunk;
      });
      const errorOutput = new PassThrough().resume();
      const code = await runWizard({ cwd, argv: [...argv, "--yes", "--type", "jwt"], input: new PassThrough(), output, errorOutput, env });
      expect(code).toBe(1);
      expect(out).toContain(`npm install failed; the files are written. Run npm install again ${folder} once the error above is fixed.`);
      expect(out).toContain("Next steps");
      expect(out).toMatch(/npm install +installs the dependencies/);
      expect(out).toContain("Not done: wrote domain.yaml and");
      expect(out.includes("cd my-app")).toBe(argv.length > 0);
      expect(out).not.toContain("again in .");
    }
    expect(await readFile(join(dir, "my-app", "domain.yaml"), "utf8")).toContain("auth:");
  });

  it("says how to try it from a clone when the registry has no @domain-auth/core (a real npm install)", { timeout: 120_000 }, async () => {
    const output = new PassThrough();
    let out = "";
    output.on("data", (chunk: Buffer) => {
      out += chunk;
    });
    const errorOutput = new PassThrough();
    let err = "";
    errorOutput.on("data", (chunk: Buffer) => {
      err += chunk;
    });
    // As under `npm test --silent`: the install's errors must show all the same.
    const env = {
      ...process.env,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      npm_config_loglevel: "silent",
    };
    const code = await runWizard({ cwd: dir, argv: ["my-app", "--yes"], input: new PassThrough(), output, errorOutput, env });
    expect(code).toBe(1);
    // The version of this wizard is not published (yet): npm answers 404 for the core.
    expect(err).toMatch(/404[^\n]*@domain-auth(%2f|\/)core/i);
    expect(out).toContain("The registry has no @domain-auth/core of this version yet.");
    expect(out).toContain("npm run try-wizard -- <your project folder>");
    expect(out).toContain("Not done: wrote domain.yaml and");
  });

  it("depends on the core tarball --core names, from the project's folder; refuses a missing one", async () => {
    await writeFile(join(dir, "core.tgz"), "a tarball");
    const { code, out } = await unattended(["my-app", "--yes", "--core", "core.tgz"]);
    expect(code, out).toBe(0);
    const manifest = JSON.parse(await readFile(join(dir, "my-app", "package.json"), "utf8"));
    expect(manifest.dependencies["@domain-auth/core"]).toBe("file:../core.tgz");
    const missing = await unattended(["other-app", "--yes", "--core", "nowhere.tgz"]);
    expect(missing).toMatchObject({ code: 2, err: "create-domain-auth: --core: no file at nowhere.tgz\n" });
    await expect(readdir(join(dir, "other-app"))).rejects.toThrow();
  });

  it("writes auth.verifyEmail with --verify-email, and --yes keeps the file's value", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    expect((await unattended(["--yes", "--verify-email", "--no-install"])).code).toBe(0);
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.verifyEmail).toBe(true);
    expect((await unattended(["--yes", "--no-install"])).code).toBe(0);
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.verifyEmail).toBe(true);
    expect((await unattended(["--yes", "--no-verify-email", "--no-install"])).code).toBe(0);
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.verifyEmail).toBe(false);
  });

  it("writes auth.mfa with --mfa-required and --no-mfa, and --yes keeps the file's value", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const mfa = async () => validateDomainText(await read("domain.yaml")).model?.auth?.mfa;
    expect((await unattended(["--yes", "--mfa-required", "Admin,Editor"])).code).toBe(0);
    expect(await read("domain.yaml")).toContain("  mfa: { required: [Admin, Editor] }\n");
    expect((await unattended(["--yes"])).code).toBe(0);
    expect(await mfa()).toEqual({ totp: true, passkeys: true, required: ["Admin", "Editor"] });
    expect((await unattended(["--yes", "--no-mfa"])).out).toContain("Second factors: off (auth.mfa)");
    expect(await read("domain.yaml")).toContain("  mfa: { totp: false, passkeys: false }\n");
    expect(await mfa()).toEqual({ totp: false, passkeys: false, required: [] });
    expect((await unattended(["--yes", "--mfa-required", "Admin"])).code).toBe(0);
    expect(await mfa()).toEqual({ totp: true, passkeys: true, required: ["Admin"] });
    expect(outsideAuthBlock(await read("domain.yaml"))).toBe(outsideAuthBlock(BLOG));
  });

  it("writes nothing about second factors for a new file without the flags", async () => {
    expect((await unattended(["--yes"])).code).toBe(0);
    expect(await read("domain.yaml")).not.toContain("mfa");
  });

  it("declares --providers, gives .env.local their variables, prints their callback URLs, and a rerun changes nothing", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const { code, out } = await unattended(["--yes", "--providers", "google,github"]);
    expect(code).toBe(0);
    expect(await read("domain.yaml")).toBe(
      BLOG.replace("setup: true }\n", "setup: true }\n  providers: { google: { type: google }, github: { type: github } }\n"),
    );
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.providers.map(({ id }) => id)).toEqual(["google", "github"]);
    const env = await read(".env.local");
    expect(env).toMatch(
      /^AUTH_SECRET=\S+\n[\s\S]*\n# Sign-in with providers[^\n]*\nAUTH_PROVIDER_GOOGLE_CLIENT_ID=\nAUTH_PROVIDER_GOOGLE_CLIENT_SECRET=\nAUTH_PROVIDER_GITHUB_CLIENT_ID=\nAUTH_PROVIDER_GITHUB_CLIENT_SECRET=\n$/,
    );
    expect(out).toContain("Sign-in with providers: register each callback URL at its provider,");
    expect(out).toContain("Google  http://localhost:3000/api/user/oauth/google/callback");
    expect(out).toContain("GitHub  http://localhost:3000/api/user/oauth/github/callback");
    expect(out).toMatch(/^│ {12}AUTH_PROVIDER_GITHUB_CLIENT_SECRET +│$/m);
    expect(out).toContain("In production, APP_URL takes the place of http://localhost:3000.");

    const first = await snapshotFiles(dir);
    expect((await unattended(["--yes"])).out).toContain("nothing to write");
    expect((await unattended(["--yes", "--providers", "github,google"])).out).toContain("nothing to write");
    expect(await snapshotFiles(dir)).toEqual(first);
  });

  it("keeps the values of .env.local and never prints them, and --providers= takes the presets out", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    expect((await unattended(["--yes", "--providers", "google"])).code).toBe(0);
    const filled = (await read(".env.local"))
      .replace("AUTH_PROVIDER_GOOGLE_CLIENT_ID=", "AUTH_PROVIDER_GOOGLE_CLIENT_ID=1234.apps.example")
      .replace("AUTH_PROVIDER_GOOGLE_CLIENT_SECRET=", "AUTH_PROVIDER_GOOGLE_CLIENT_SECRET=s3cret-value");
    await writeFile(join(dir, ".env.local"), filled);
    const more = await unattended(["--yes", "--providers", "google,gitlab"]);
    expect(more.code).toBe(0);
    expect(`${more.out}${more.err}`).not.toContain("s3cret-value");
    expect(await read(".env.local")).toBe(`${filled}AUTH_PROVIDER_GITLAB_CLIENT_ID=\nAUTH_PROVIDER_GITLAB_CLIENT_SECRET=\n`);

    const none = await unattended(["--yes", "--providers="]);
    expect(none.code).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG);
    expect(none.out).not.toContain("Sign-in with providers");
    expect(await read(".env.local")).toContain("AUTH_PROVIDER_GOOGLE_CLIENT_SECRET=s3cret-value\n");
  });

  it("gives a provider the file declares itself its variables and callback URL, and writes providers into a new file", async () => {
    const custom = BLOG.replace(
      "setup: true }\n",
      "setup: true }\n  providers:\n    acme-id: { type: oidc, issuer: https://id.acme.example, name: Acme }\n",
    );
    await writeFile(join(dir, "domain.yaml"), custom);
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    expect(await read("domain.yaml")).toBe(custom);
    expect(await read(".env.local")).toContain("\nAUTH_PROVIDER_ACME_ID_CLIENT_ID=\nAUTH_PROVIDER_ACME_ID_CLIENT_SECRET=\n");
    expect(out).toContain("Acme  http://localhost:3000/api/user/oauth/acme-id/callback");

    const fresh = await unattended(["new-app", "--yes", "--providers", "gitlab"]);
    expect(fresh.code).toBe(0);
    const { model } = validateDomainText(await readFile(join(dir, "new-app/domain.yaml"), "utf8"));
    expect(model?.auth?.providers.map(({ id, type }) => [id, type])).toEqual([["gitlab", "gitlab"]]);
    expect(await readFile(join(dir, "new-app/.env.local"), "utf8")).toContain("\nAUTH_PROVIDER_GITLAB_CLIENT_SECRET=\n");
  });

  it("exits 2 on --providers the wizard cannot declare, or with --type none, writing nothing", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const before = await snapshotFiles(dir);
    expect(await unattended(["--yes", "--providers", "google,gitbub"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--providers: 'gitbub' is not a provider the wizard adds (did you mean 'github'?)"),
    });
    expect(await unattended(["--yes", "--providers", "microsoft"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--providers: 'microsoft' needs tenant, which only domain.yaml can say"),
    });
    expect(await unattended(["--yes", "--type", "none", "--providers", "google"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--type none and --providers contradict each other"),
    });
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  it("writes auth.organizations with --organizations, says where the pages are, and --no-organizations takes it out", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const { code, out } = await unattended(["--yes", "--organizations", "Owner,Manager,Member"]);
    expect(code).toBe(0);
    const organized = BLOG.replace("setup: true }\n", "setup: true }\n  organizations: { roles: [Owner, Manager, Member] }\n");
    expect(await read("domain.yaml")).toBe(organized);
    expect(validateDomainText(organized).model?.auth?.organizations).toEqual({
      roles: ["Owner", "Manager", "Member"],
      manage: ["Owner"],
      create: ["@Authenticated"],
    });
    expect(out).toContain("│  Organizations: members hold Owner, Manager or Member;");
    expect(out).toContain("│  whoever creates one is its Owner.");
    expect(out).toContain("│  tenant: true on an entity makes its records belong to an organization");
    expect(out).toContain("│  (no entity has it yet: add it in domain.yaml).");
    expect(out).toContain("│  Pages: /orgs (yours, create one), /orgs/<id> (members, invitations).");

    const first = await snapshotFiles(dir);
    expect((await unattended(["--yes"])).out).toContain("nothing to write");
    expect((await unattended(["--yes", "--organizations", "Owner, Manager Member"])).out).toContain("nothing to write");
    expect(await snapshotFiles(dir)).toEqual(first);

    const none = await unattended(["--yes", "--no-organizations"]);
    expect(none.code).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG);
    expect(none.out).not.toContain("Organizations:");
    expect((await unattended(["--yes", "--organizations", "Owner"])).code).toBe(0);
    expect((await unattended(["--yes", "--organizations="])).code).toBe(0);
    expect(await read("domain.yaml")).toBe(BLOG);
  });

  it("writes organizations into a new file, whose roles Admin and Member organization roles cannot take", async () => {
    expect(await unattended(["new-app", "--yes", "--organizations", "Owner,Manager,Member"])).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        "--organizations: 'Member' is also a role of auth.roles: name organization roles apart (auth.roles: Admin, Member; --roles changes them)",
      ),
    });
    const { code, out } = await unattended(["new-app", "--yes", "--organizations", "Owner,Manager"]);
    expect(code).toBe(0);
    const { model } = validateDomainText(await readFile(join(dir, "new-app/domain.yaml"), "utf8"));
    expect(model?.auth?.organizations?.roles).toEqual(["Owner", "Manager"]);
    expect(out).toContain("Organizations: members hold Owner or Manager;");
  });

  it("starts the question on Owner, Manager for a new file: its Member is a global role", async () => {
    const session = start(dir);
    await session.answer("has no domain.yaml", KEY.enter);
    for (const question of [
      "How do callers authenticate?",
      "Which entity holds the users?",
      "Which roles can users hold?",
      "Which role does register give",
      "Which endpoints should exist?",
      "Require users who register to confirm",
      "Second factors",
      "Which providers may people sign in with?",
    ])
      await session.answer(question, KEY.enter);
    await session.answer(Q, KEY.up, KEY.enter);
    await session.waitFor(R);
    await session.answer("Owner, Manager", KEY.enter);
    await session.answer("Write these changes?", KEY.enter);
    expect(await session.done).toBe(0);
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.organizations?.roles).toEqual(["Owner", "Manager"]);
  });

  it("exits 2 on organization roles the core refuses, with --type none, or without the organizations a tenant needs, writing nothing", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const before = await snapshotFiles(dir);
    expect(await unattended(["--yes", "--organizations", "Owner,Admin"])).toMatchObject({
      code: 2,
      err: "create-domain-auth: --organizations: 'Admin' is also a role of auth.roles: name organization roles apart (auth.roles: Admin, Editor, Reader; --roles changes them)\n",
    });
    expect(await unattended(["--yes", "--roles", "Owner,Reader", "--default-role", "Reader", "--organizations", "Owner"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--organizations: 'Owner' is also a role of auth.roles"),
    });
    expect(await unattended(["--yes", "--organizations", "Owner,Member,Owner"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--organizations: organization role 'Owner' is declared twice"),
    });
    expect(await unattended(["--yes", "--organizations", "Owner,9lives"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--organizations: '9lives' is not a valid role name"),
    });
    expect(await unattended(["--yes", "--type", "none", "--organizations", "Owner"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--type none and --organizations contradict each other"),
    });
    expect(await unattended(["--yes", "--organizations", "Owner", "--no-organizations"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--organizations and --no-organizations contradict each other"),
    });
    expect(await snapshotFiles(dir)).toEqual(before);

    const teams = BLOG.replace(
      "  # Posts belong",
      "  Project:\n    tenant: true\n    fields:\n      title: string\n\n  # Posts belong",
    ).replace("setup: true }\n", "setup: true }\n  organizations: { roles: [Owner, Member] }\n");
    await writeFile(join(dir, "domain.yaml"), teams);
    const withTenant = await snapshotFiles(dir);
    expect(await unattended(["--yes", "--no-organizations"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("no organizations, but Project is a tenant entity (tenant: true)"),
    });
    await writeFile(join(dir, "domain.yaml"), BLOG.replace("type: jwt   # or none", "type: none   # or none"));
    expect(await unattended(["--yes", "--organizations", "Owner"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--organizations: domain.yaml says auth.type none"),
    });
    await writeFile(join(dir, "domain.yaml"), teams);
    expect(await snapshotFiles(dir)).toEqual(withTenant);
  });

  it("exits 2 on --mfa-required with a role that is not declared, writing nothing", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const before = await snapshotFiles(dir);
    expect(await unattended(["--yes", "--mfa-required", "Admin,Edtor"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--mfa-required: role 'Edtor' is not declared in auth.roles (did you mean 'Editor'?)"),
    });
    expect(await unattended(["--yes", "--roles", "Owner,Editor,Reader", "--mfa-required", "Admin"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--mfa-required: role 'Admin' is not declared in auth.roles (declared: Owner, Editor, Reader)"),
    });
    expect(await unattended(["--yes", "--mfa-required", "Admin", "--no-mfa"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--mfa-required and --no-mfa contradict each other"),
    });
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  it("picks the least privileged role the new roles allow, the last listed, for a new file", async () => {
    expect((await unattended(["--yes", "--roles", "Owner,Staff,Guest"])).code).toBe(0);
    expect(validateDomainText(await read("domain.yaml")).model?.auth?.defaultRole).toBe("Guest");
  });

  it("changes no byte on an identical rerun", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    expect((await unattended(["--yes", "--no-setup"])).code).toBe(0);
    const first = await snapshotFiles(dir);
    const again = await unattended(["--yes", "--no-setup"]);
    expect(again.code).toBe(0);
    expect(again.out).toContain("nothing to write");
    expect(await snapshotFiles(dir)).toEqual(first);
  });

  it("writes nothing on --dry-run, but shows the change", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const before = await snapshotFiles(dir);
    const { code, out } = await unattended(["--yes", "--dry-run", "--type", "none"]);
    expect(code).toBe(0);
    expect(out).toContain("+   type: none   # or none");
    expect(out).toContain("files would be written; nothing was.");
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  it("writes nothing on --dry-run in an empty folder", async () => {
    expect((await unattended(["--yes", "--dry-run"])).code).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it("exits 1 with positioned errors when the result would not validate, writing nothing", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const before = await snapshotFiles(dir);
    const { code, err } = await unattended(["--yes", "--roles", "Admin,Editor"]);
    expect(code).toBe(1);
    expect(err).toMatch(/^domain\.yaml:9:\d+ {2}entities\.User\.fields\.role\.default {2}.*Reader/m);
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  it("exits 1 on a file that is not YAML", async () => {
    await writeFile(join(dir, "domain.yaml"), "name: [unclosed\n");
    const { code, err } = await unattended(["--yes"]);
    expect(code).toBe(1);
    expect(err).toMatch(/^domain\.yaml:\d+:\d+ {2}/);
  });

  it("exits 2 on bad flags", async () => {
    expect((await unattended(["--yes", "--type", "oauth2"])).err).toContain(
      "auth.type 'oauth2' is planned but not implemented; use jwt or none",
    );
    await writeFile(join(dir, "domain.yaml"), BLOG);
    const entity = await unattended(["--yes", "--entity", "Author"]);
    expect(entity).toMatchObject({
      code: 2,
      err: expect.stringContaining("'Author' is not an entity of domain.yaml (entities: User, Post)"),
    });
    const role = await unattended(["--yes", "--roles", "Admin,Reader", "--default-role", "Admin"]);
    expect(role).toMatchObject({ code: 2, err: expect.stringContaining("'Admin' is the setup role") });
  });

  it("keeps a scaffolded file the user changed, and says so", async () => {
    await writeFile(join(dir, "domain.yaml"), BLOG);
    await mkdir(join(dir, "app/api/[...path]"), { recursive: true });
    await writeFile(join(dir, ROUTE), "// mine\n");
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    expect(await read(ROUTE)).toBe("// mine\n");
    expect(out).toContain(`Skipped ${ROUTE}: it differs from the template.`);
  });

  it("adds to an existing .gitignore and .env.local, keeping an existing secret", async () => {
    await writeFile(join(dir, ".gitignore"), "node_modules\n");
    await writeFile(join(dir, ".env.local"), "PORT=3001\n");
    expect((await unattended(["--yes"])).code).toBe(0);
    expect(await read(".gitignore")).toBe("node_modules\n\n# domain-auth\n.env.local\n.data/\n");
    const env = await read(".env.local");
    expect(env).toMatch(/^PORT=3001\nAUTH_SECRET=[A-Za-z0-9_-]{43}\n\n# E-mail for password reset[\s\S]*# SMTP_URL=/);
    expect((await unattended(["--yes"])).code).toBe(0);
    expect(await read(".env.local")).toBe(env);
  });

  it("prints help and version", async () => {
    const help = await unattended(["--help"]);
    expect(help).toMatchObject({ code: 0, out: expect.stringContaining("--default-role NAME") });
    expect(help.out).toMatch(/^ {2}--mfa-required ROLES {3}\S/m);
    expect(help.out).toMatch(/^ {2}--no-mfa {15}\S/m);
    expect(help.out).toMatch(/^ {2}--organizations ROLES {2}\S/m);
    expect(help.out).toMatch(/^ {2}--no-organizations {5}\S/m);
    const version = await unattended(["--version"]);
    expect(version).toMatchObject({ code: 0, out: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });
});

describe("in an existing Next.js project", () => {
  const LAYOUT =
    'import "./globals.css";\n\nexport default function RootLayout({ children }: LayoutProps<"/">) {\n  return <html lang="en"><body>{children}</body></html>;\n}\n';
  const CONFIG =
    'import type { NextConfig } from "next";\n\nconst nextConfig: NextConfig = {\n  /* config options here */\n  cacheComponents: true,\n};\n\nexport default nextConfig;\n';

  /** A project shaped like create-next-app's: its own layout, home page, styles and config. */
  async function nextProject(options: { appDir?: string; config?: string } = {}): Promise<Record<string, string>> {
    const appDir = options.appDir ?? "app";
    const files: Record<string, string> = {
      "package.json": `${JSON.stringify({ name: "mine", scripts: { dev: "next dev", start: "next start" }, dependencies: { next: "16.4.3" } }, null, 2)}\n`,
      "tsconfig.json": `{ "compilerOptions": { "paths": { "@/*": ["./${appDir === "app" ? "" : "src/"}*"] } } }\n`,
      "package-lock.json": "{}\n",
      "next.config.ts": options.config ?? CONFIG,
      [`${appDir}/layout.tsx`]: LAYOUT,
      [`${appDir}/page.tsx`]: "export default function Home() {\n  return <main>mine</main>;\n}\n",
      [`${appDir}/globals.css`]: '@import "tailwindcss";\n',
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(dir, path, ".."), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    return files;
  }

  it("keeps the user's files, edits next.config and package.json, and a rerun changes nothing", async () => {
    const mine = await nextProject();
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    for (const path of ["app/layout.tsx", "app/page.tsx", "app/globals.css"]) expect(await read(path)).toBe(mine[path]);
    expect(await read("next.config.ts")).toBe(
      CONFIG.replace(
        "cacheComponents: true,\n",
        'cacheComponents: true,\n  serverExternalPackages: ["@domain-auth/core"],\n  poweredByHeader: false,\n  experimental: { authInterrupts: true },\n',
      ),
    );
    const manifest = JSON.parse(await read("package.json"));
    expect(manifest.dependencies["@domain-auth/core"]).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(manifest.scripts.start).toBe("node server.mjs");
    expect(await read(ROUTE)).toContain("authFromEnv");
    expect(out).toContain('+   serverExternalPackages: ["@domain-auth/core"],');
    expect(out).toContain("update     package.json  (adds dependencies; start: node server.mjs)");
    expect(manifest.dependencies["@next/env"]).toBe("16.4.3");
    expect(out).toContain('+     "@next/env": "16.4.3",');
    // cacheComponents is on: the auth pages' layout opts out of the prerendered shell.
    expect(await read("app/(domain-auth)/layout.tsx")).toContain("export const instant = false;");
    expect(out).toContain("npm install ");
    // …and so does the page the next steps show (without the line, next build stops at it).
    expect(out).toContain(`│    ${INSTANT_LINE}`);

    const first = await snapshotFiles(dir);
    const again = await unattended(["--yes"]);
    expect(again).toMatchObject({ code: 0, out: expect.stringContaining("nothing to write") });
    expect(await snapshotFiles(dir)).toEqual(first);
  });

  it("scaffolds under src/ in a src/app project, with server.mjs at the root", async () => {
    await nextProject({ appDir: "src/app" });
    expect((await unattended(["--yes", "--keep-start"])).code).toBe(0);
    expect(await read(`src/${ROUTE}`)).toContain("authFromEnv");
    expect(await read("server.mjs")).toContain("createServer");
    expect(JSON.parse(await read("package.json")).scripts.start).toBe("next start");
  });

  it("adds the 403 page app/forbidden.tsx, keeps one of the project's own, and writes none beside a forbidden.js", async () => {
    await nextProject();
    expect((await unattended(["--yes"])).code).toBe(0);
    expect(await read("app/forbidden.tsx")).toContain('from "@/components/domain-auth/status-page"');

    await rm(join(dir, "app/forbidden.tsx"));
    await writeFile(join(dir, "app/forbidden.js"), "export default function Forbidden() {\n  return <p>No.</p>;\n}\n");
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    expect(await readdir(join(dir, "app"))).not.toContain("forbidden.tsx");
    expect(out).toContain("skip       app/forbidden.tsx  (app/forbidden.js is yours)");

    await rm(join(dir, "app/forbidden.js"));
    await writeFile(join(dir, "app/forbidden.tsx"), "// mine\n");
    expect((await unattended(["--yes"])).out).toContain("skip       app/forbidden.tsx  (differs from the template; kept as it is)");
    expect(await read("app/forbidden.tsx")).toBe("// mine\n");
  });

  it("gives the auth pages the plain layout when cacheComponents is off", async () => {
    await nextProject({ config: CONFIG.replace("cacheComponents: true", "cacheComponents: false") });
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    const layout = await read("app/(domain-auth)/layout.tsx");
    expect(layout).toContain("AuthFrame");
    expect(layout).not.toContain("instant");
    // Next.js refuses `instant` without cacheComponents: the next steps' page has none either.
    expect(out).toContain("const user = await requireUser();");
    expect(out).not.toContain(INSTANT_LINE);
  });

  it("writes nothing and names the change when next.config wraps its object", async () => {
    await nextProject({ config: 'import withMDX from "@next/mdx";\nexport default withMDX({ reactStrictMode: true });\n' });
    const before = await snapshotFiles(dir);
    const { code, err } = await unattended(["--yes"]);
    expect(code).toBe(1);
    expect(err).toContain("next.config.ts cannot be edited safely: the default export is a call that wraps the config");
    expect(err).toContain('serverExternalPackages: ["@domain-auth/core"],');
    expect(await snapshotFiles(dir)).toEqual(before);
  });

  describe("in JavaScript", () => {
    const JS_LAYOUT =
      'import "./globals.css";\n\nexport default function RootLayout({ children }) {\n  return <html lang="en"><body>{children}</body></html>;\n}\n';

    /** A project shaped like `create-next-app --js`: jsconfig.json with the alias, next.config.mjs, app/layout.js. */
    async function javaScriptProject(options: { appDir?: string; jsconfig?: string | null } = {}): Promise<Record<string, string>> {
      const appDir = options.appDir ?? "app";
      const files: Record<string, string> = {
        "package.json": `${JSON.stringify({ name: "mine", scripts: { start: "next start" }, dependencies: { next: "16.4.3" }, devDependencies: { eslint: "^9" } }, null, 2)}\n`,
        "next.config.mjs": "const nextConfig = {\n  /* config options here */\n};\n\nexport default nextConfig;\n",
        [`${appDir}/layout.js`]: JS_LAYOUT,
        [`${appDir}/page.js`]: "export default function Home() {\n  return <main>mine</main>;\n}\n",
        "eslint.config.mjs": 'import nextVitals from "eslint-config-next/core-web-vitals";\n\nexport default [...nextVitals];\n',
      };
      if (options.jsconfig !== null) {
        files["jsconfig.json"] =
          options.jsconfig ??
          `{\n  "compilerOptions": {\n    "paths": {\n      "@/*": ["./${appDir === "app" ? "" : "src/"}*"]\n    }\n  }\n}\n`;
      }
      for (const [path, content] of Object.entries(files)) {
        await mkdir(join(dir, path, ".."), { recursive: true });
        await writeFile(join(dir, path), content);
      }
      return files;
    }

    it("adds TypeScript beside jsconfig.json, keeping the user's files, and a rerun changes nothing", async () => {
      const mine = await javaScriptProject();
      const { code, out } = await unattended(["--yes"]);
      expect(code).toBe(0);
      for (const path of ["jsconfig.json", "app/layout.js", "app/page.js", "eslint.config.mjs"])
        expect(await read(path), path).toBe(mine[path]);
      const tsconfig = JSON.parse(await read("tsconfig.json"));
      expect(tsconfig).toMatchObject({ extends: "./jsconfig.json", compilerOptions: { allowJs: true, strict: true, jsx: "react-jsx" } });
      expect(tsconfig.compilerOptions.paths).toBeUndefined();
      const versions = JSON.parse(await readFile(new URL("../templates/next/versions.json", import.meta.url), "utf8"));
      const manifest = JSON.parse(await read("package.json"));
      expect(manifest.devDependencies).toEqual({
        "@types/node": versions["@types/node"],
        "@types/react": versions["@types/react"],
        "@types/react-dom": versions["@types/react-dom"],
        eslint: "^9",
        typescript: versions.typescript,
      });
      expect(manifest.dependencies["@domain-auth/core"]).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(out).toContain(`+     "typescript": "${versions.typescript}"`);
      expect(out).toContain("update     package.json  (adds dependencies; start: node server.mjs)");
      expect(out).toContain("create     tsconfig.json  (TypeScript; extends jsconfig.json)");
      expect(await read("next.config.mjs")).toContain('serverExternalPackages: ["@domain-auth/core"]');
      expect(await read(ROUTE)).toContain("authFromEnv");
      expect(await read("proxy.ts")).toContain("withSecurityHeaders");

      const first = await snapshotFiles(dir);
      const again = await unattended(["--yes"]);
      expect(again).toMatchObject({ code: 0, out: expect.stringContaining("nothing to write") });
      expect(await snapshotFiles(dir)).toEqual(first);
    });

    it("writes create-next-app's tsconfig.json, with the alias, in a src/ project without jsconfig.json", async () => {
      await javaScriptProject({ appDir: "src/app", jsconfig: null });
      expect((await unattended(["--yes"])).code).toBe(0);
      expect(JSON.parse(await read("tsconfig.json")).compilerOptions).toMatchObject({ allowJs: true, paths: { "@/*": ["./src/*"] } });
      expect(await read(`src/${ROUTE}`)).toContain("authFromEnv");
      expect((await unattended(["--yes"])).out).toContain("nothing to write");
    });

    it("refuses a jsconfig.json without the @/* alias, writing nothing", async () => {
      await javaScriptProject({ jsconfig: '{ "compilerOptions": { "checkJs": true } }\n' });
      const before = await snapshotFiles(dir);
      const { code, out } = await unattended(["--yes"]);
      expect(code).toBe(1);
      expect(out).toContain('jsconfig.json must map "@/*" to the project folder, as create-next-app does');
      expect(out).toContain('"paths": { "@/*": ["./*"] }');
      expect(await snapshotFiles(dir)).toEqual(before);
    });
  });
});

describe("beside the user's own proxy", () => {
  async function project(file: string, content: string) {
    await writeFile(join(dir, "package.json"), JSON.stringify({ dependencies: { next: "16" } }));
    await writeFile(join(dir, "tsconfig.json"), '{ "compilerOptions": { "paths": { "@/*": ["./*"] } } }');
    await mkdir(join(dir, "app"));
    await writeFile(join(dir, file), content);
  }

  it("keeps the project's proxy.ts byte for byte, without asking, and prints how to wrap it", async () => {
    const mine = 'import { NextResponse } from "next/server";\n\nexport function proxy() {\n  return NextResponse.next();\n}\n';
    await project("proxy.ts", mine);
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    expect(await read("proxy.ts")).toBe(mine);
    expect(out).toContain("skip       proxy.ts");
    expect(out).toContain('import { isAuthPage, withSecurityHeaders } from "@/lib/domain-auth/security-headers";');
    expect(out).toContain('import { withSession } from "@domain-auth/core/next";');
    expect(out).toContain("return withSession(request, {");
    expect(out).toContain("protect: [], // pages answered 307 (signed out) or 403 (another role) before they render");
    expect(out).toContain("respond: (requestHeaders) => {");
    expect(out).toContain("In proxy.ts, for a 307 to /login or a 403 before it renders:");
    expect(out).toContain("if (isAuthPage(request.nextUrl.pathname)) return withSecurityHeaders(request, { requestHeaders });");
    expect(out).toContain("/setup, /login, /register, /profile, /admin");
    expect(out).not.toContain("differs from the template");
  });

  it("does not add proxy.ts beside a middleware.ts", async () => {
    await project("middleware.ts", "export function middleware() {}\n");
    const { code, out } = await unattended(["--yes"]);
    expect(code).toBe(0);
    expect(await readdir(dir)).not.toContain("proxy.ts");
    expect(out).toContain("middleware.ts is yours and stays as it is");
    expect(out).toContain("rename it proxy.ts");
  });
});
