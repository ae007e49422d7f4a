import { validateDomainText } from "@domain-auth/core/config";
import { describe, expect, it } from "vitest";
import type { AuthChoices } from "./auth-choices.js";
import { applyAuthChoices } from "./auth-edit.js";
import { readDomainState } from "./domain-state.js";
import { PRESET_PROVIDERS } from "./providers.js";

const BLOG = `# The blog's API.
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
      delete: [Admin]
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
  type: jwt   # jwt or none
  entity: User                  # optional: detected when omitted
  roles: [Admin, Editor, Reader]
  endpoints: { login: true, register: true, me: true, setup: true }

# trailing comment
`;

const ALL_ON = {
  login: true,
  register: true,
  me: true,
  setup: true,
  logout: true,
  refresh: true,
  sessions: true,
  passwordReset: true,
  verifyEmail: true,
};
const MFA_DEFAULTS = { totp: true, passkeys: true, required: [] };
const BLOG_CHOICES: AuthChoices = {
  type: "jwt",
  entity: "User",
  addFields: [],
  roles: ["Admin", "Editor", "Reader"],
  defaultRole: "Reader",
  endpoints: ALL_ON,
  verifyEmail: false,
  mfa: MFA_DEFAULTS,
};

function authBlockOf(text: string): string {
  const start = text.indexOf("\nauth:");
  const end = text.indexOf("\n\n", start + 1);
  return text.slice(start, end);
}

function withoutAuthBlock(text: string): string {
  return text.replace(authBlockOf(text), "");
}

describe("applyAuthChoices", () => {
  it("returns the same text when the answers match the file", () => {
    expect(applyAuthChoices(BLOG, BLOG_CHOICES)).toBe(BLOG);
  });

  it("changes only the auth block when switching jwt to none, keeping every comment", () => {
    const result = applyAuthChoices(BLOG, { ...BLOG_CHOICES, type: "none" });
    expect(withoutAuthBlock(result)).toBe(withoutAuthBlock(BLOG));
    expect(authBlockOf(result)).toContain("type: none   # jwt or none");
    expect(validateDomainText(result).errorCount).toBe(0);
    expect(readDomainState(result)?.type).toBe("none");
  });

  it("rewrites roles, the default role and endpoints in place", () => {
    const result = applyAuthChoices(BLOG, {
      ...BLOG_CHOICES,
      roles: ["Admin", "Editor", "Reader", "Guest"],
      defaultRole: "Guest",
      endpoints: { ...ALL_ON, register: false },
    });
    expect(result).toContain("  roles: [Admin, Editor, Reader, Guest]\n");
    expect(result).toContain("role: { type: string, default: Guest }   # the schema default role\n");
    expect(result).toContain("endpoints: { login: true, register: false, me: true, setup: true }");
    expect(result).toContain("name: blog                      # identifier; used as the JWT issuer\n");
    expect(validateDomainText(result).errorCount).toBe(0);
  });

  it("removes the default role when register should give none", () => {
    const result = applyAuthChoices(BLOG, { ...BLOG_CHOICES, defaultRole: null });
    expect(result).toContain("      role: { type: string }   # the schema default role\n");
    expect(validateDomainText(result).model?.auth?.defaultRole).toBeNull();
  });

  it("adds the auth block, missing credentials and a role field to a file without auth", () => {
    const source = "name: shop # the shop\nentities:\n  Customer:\n    fields:\n      email: string # login name\n";
    const result = applyAuthChoices(source, {
      type: "jwt",
      entity: "Customer",
      addFields: ["password"],
      roles: ["Admin", "Buyer"],
      defaultRole: "Buyer",
      endpoints: { ...ALL_ON, setup: false },
      verifyEmail: false,
      mfa: MFA_DEFAULTS,
    });
    expect(result).toBe(
      [
        "name: shop # the shop",
        "entities:",
        "  Customer:",
        "    fields:",
        "      email: string # login name",
        "      password: { type: string, required: true }",
        "      role: { type: string, default: Buyer }",
        "auth:",
        "  type: jwt",
        "  roles: [Admin, Buyer]",
        "  endpoints: { login: true, register: true, me: true, setup: false, logout: true, refresh: true, sessions: true, passwordReset: true, verifyEmail: true }",
        "",
      ].join("\n"),
    );
    expect(validateDomainText(result).errorCount).toBe(0);
  });

  it("names the entity when detection would not find it, and keeps block-style lists block-style", () => {
    const source = [
      "name: two",
      "entities:",
      "  Staff:",
      "    fields:",
      "      email: string",
      "      password: string",
      "  Member:",
      "    fields:",
      "      email: string",
      "      password: string",
      "auth:",
      "  type: jwt",
      "  roles:",
      "    - Admin   # everything",
      "    - Clerk",
      "",
    ].join("\n");
    const result = applyAuthChoices(source, { ...BLOG_CHOICES, entity: "Staff", roles: ["Admin", "Clerk", "Viewer"], defaultRole: null });
    expect(result).toContain("auth:\n  type: jwt\n  entity: Staff\n  roles:\n    - Admin\n    - Clerk\n    - Viewer\n");
    expect(validateDomainText(result).errorCount).toBe(0);
  });

  it("turns a shorthand role field into a map with a default, and writes a quoted scalar when plain would not read back", () => {
    const source =
      "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n      role: string\nauth:\n  type: jwt\n";
    const result = applyAuthChoices(source, { ...BLOG_CHOICES, roles: ["Admin", "true"], defaultRole: "true" });
    expect(result).toContain('      role: { type: string, default: "true" }\n');
    expect(result).toContain('  roles: [Admin, "true"]\n');
    expect(readDomainState(result)?.roles).toEqual(["Admin", "true"]);
  });

  it("adds keys to an endpoints block map in their usual order", () => {
    const source =
      "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n  endpoints:\n    login: true\n    setup: true # first run\n";
    const result = applyAuthChoices(source, { ...BLOG_CHOICES, roles: [], defaultRole: null, endpoints: { ...ALL_ON, me: false } });
    expect(result).toContain("  endpoints:\n    login: true\n    me: false\n    setup: true # first run\n");
    expect(validateDomainText(result).model?.auth?.endpoints.me).toBe(false);
  });

  it("replaces an auth value that is not a map", () => {
    const source = "name: x\nauth: jwt # to do\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n";
    const result = applyAuthChoices(source, { ...BLOG_CHOICES, roles: ["Admin"], defaultRole: null });
    expect(result).toBe(
      "name: x\nauth:\n  type: jwt\n  roles: [Admin]\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n",
    );
  });
});

describe("auth.verifyEmail", () => {
  const source = "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n";
  const choices = { ...BLOG_CHOICES, roles: [], defaultRole: null };

  it("is written when turned on, and a rerun with the same answer changes nothing", () => {
    const result = applyAuthChoices(source, { ...choices, verifyEmail: true });
    expect(result).toContain("auth:\n  type: jwt\n  verifyEmail: true\n");
    expect(validateDomainText(result).model?.auth?.verifyEmail).toBe(true);
    expect(applyAuthChoices(result, { ...choices, verifyEmail: true })).toBe(result);
  });

  it("is not written while off, and is turned off where the file had it on", () => {
    expect(applyAuthChoices(source, { ...choices, verifyEmail: false })).toBe(source);
    const on = applyAuthChoices(source, { ...choices, verifyEmail: true });
    expect(applyAuthChoices(on, { ...choices, verifyEmail: false })).toContain("  verifyEmail: false\n");
  });

  it("goes into a new auth block when turned on", () => {
    const bare = "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n";
    expect(applyAuthChoices(bare, { ...choices, verifyEmail: true })).toContain("  verifyEmail: true\n");
  });
});

describe("auth.mfa", () => {
  const source =
    "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n  roles: [Admin, Editor]\n";
  const choices = { ...BLOG_CHOICES, roles: ["Admin", "Editor"], defaultRole: null };
  const required = (...roles: string[]) => ({ ...choices, mfa: { ...MFA_DEFAULTS, required: roles } });
  const off = { ...choices, mfa: { totp: false, passkeys: false, required: [] } };
  const mfaOf = (text: string) => validateDomainText(text).model?.auth?.mfa;

  it("is not written while it holds the defaults, and is kept where the file spells them out", () => {
    expect(applyAuthChoices(source, choices)).toBe(source);
    const spelled = `${source}  mfa: { totp: true, required: [] }\n`;
    expect(applyAuthChoices(spelled, choices)).toBe(spelled);
  });

  it("writes the required roles, and a rerun with the same answer changes nothing", () => {
    const result = applyAuthChoices(source, required("Admin"));
    expect(result).toBe(`${source}  mfa: { required: [Admin] }\n`);
    expect(mfaOf(result)).toEqual({ totp: true, passkeys: true, required: ["Admin"] });
    expect(applyAuthChoices(result, required("Admin"))).toBe(result);
  });

  it("turns both factors off, with no required roles", () => {
    const result = applyAuthChoices(`${source}  mfa: { required: [Admin] }   # admins\n`, off);
    expect(result).toBe(`${source}  mfa: { totp: false, passkeys: false }   # admins\n`);
    expect(mfaOf(result)).toEqual({ totp: false, passkeys: false, required: [] });
  });

  it("goes after verifyEmail, and into a new auth block", () => {
    const withVerify = applyAuthChoices(source, { ...required("Admin", "Editor"), verifyEmail: true });
    expect(withVerify).toContain("  roles: [Admin, Editor]\n  verifyEmail: true\n  mfa: { required: [Admin, Editor] }\n");
    const bare = "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n";
    expect(applyAuthChoices(bare, off)).toBe(
      `${bare}auth:\n  type: jwt\n  roles: [Admin, Editor]\n  mfa: { totp: false, passkeys: false }\n`,
    );
  });

  it("takes the block out when nothing but the default is left in it", () => {
    expect(applyAuthChoices(`${source}  mfa: { required: [Admin] }\n# end\n`, choices)).toBe(`${source}# end\n`);
    expect(applyAuthChoices(`${source}  mfa: { totp: true, required: [Admin] }\n`, choices)).toBe(`${source}  mfa: { totp: true }\n`);
  });

  it("edits a block map in place, keeping its comments and its lists' style", () => {
    const block = `${source}  mfa:   # second factors\n    totp: false # no apps\n    required:\n      - Admin\n      - Editor   # editors too\n  verifyEmail: false\n`;
    expect(applyAuthChoices(block, { ...choices, mfa: { totp: false, passkeys: true, required: ["Admin"] } })).toBe(
      `${source}  mfa:   # second factors\n    totp: false # no apps\n    required:\n      - Admin\n  verifyEmail: false\n`,
    );
    const result = applyAuthChoices(block, off);
    expect(result).toBe(`${source}  mfa:   # second factors\n    totp: false # no apps\n    passkeys: false\n  verifyEmail: false\n`);
    expect(mfaOf(result)).toEqual({ totp: false, passkeys: false, required: [] });
  });

  it("turns the factors back on in place when roles become required", () => {
    const block = `${source}  mfa:\n    totp: false # no apps\n    passkeys: false\n`;
    const result = applyAuthChoices(block, required("Editor"));
    expect(result).toBe(`${source}  mfa:\n    totp: true # no apps\n    passkeys: true\n    required: [Editor]\n`);
    expect(mfaOf(result)).toEqual({ totp: true, passkeys: true, required: ["Editor"] });
  });

  it("replaces a value that is not a map", () => {
    expect(applyAuthChoices(`${source}  mfa: on\n`, required("Admin"))).toBe(`${source}  mfa: { required: [Admin] }\n`);
    expect(applyAuthChoices(`${source}  mfa:\n`, choices)).toBe(source);
  });

  it("is left as it is under auth.type none", () => {
    const withMfa = `${source}  mfa: { required: [Admin] }\n`;
    expect(applyAuthChoices(withMfa, { ...off, type: "none" })).toBe(withMfa.replace("type: jwt", "type: none"));
  });
});

describe("auth.providers", () => {
  const source =
    "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n  roles: [Admin]\n";
  const choices = { ...BLOG_CHOICES, roles: ["Admin"], defaultRole: null };
  const offering = (...providers: NonNullable<AuthChoices["providers"]>) => ({ ...choices, providers });
  const providersOf = (text: string) => validateDomainText(text).model?.auth?.providers.map(({ id, type }) => `${id}:${type}`);
  const ACME = "    acme:   # our own\n      type: oidc\n      issuer: https://id.acme.example\n      name: Acme\n";
  const WORK = "    work: { type: microsoft, tenant: contoso.onmicrosoft.com }\n";

  it("creates the key after mfa in the order chosen, and a rerun with the same answer changes nothing", () => {
    const withMfa = `${source}  mfa: { required: [Admin] }\n# end\n`;
    const requiring = { ...offering("github", "google"), mfa: { ...MFA_DEFAULTS, required: ["Admin"] } };
    const result = applyAuthChoices(withMfa, requiring);
    expect(result).toBe(withMfa.replace("# end", "  providers: { github: { type: github }, google: { type: google } }\n# end"));
    expect(providersOf(result)).toEqual(["github:github", "google:google"]);
    expect(applyAuthChoices(result, requiring)).toBe(result);
  });

  it("adds to a block map line by line, keeping its other providers and comments", () => {
    const block = `${source}  providers:   # sign in with\n${ACME}    google: { type: google }  # Google\n  verifyEmail: false\n`;
    const result = applyAuthChoices(block, offering("google", "gitlab", "github"));
    expect(result).toBe(block.replace("# Google\n", "# Google\n    gitlab: { type: gitlab }\n    github: { type: github }\n"));
    expect(providersOf(result)).toEqual(["acme:oidc", "google:google", "gitlab:gitlab", "github:github"]);
    expect(applyAuthChoices(result, offering("google", "gitlab", "github"))).toBe(result);
  });

  it("adds to a flow map, keeping its entries as written", () => {
    const flow = `${source}  providers: { work: { type: microsoft, tenant: contoso.onmicrosoft.com }, google: {type: google} }   # ours\n`;
    const result = applyAuthChoices(flow, offering("google", "github"));
    expect(result).toBe(flow.replace("{type: google} }", "{type: google}, github: { type: github } }"));
    expect(providersOf(result)).toEqual(["work:microsoft", "google:google", "github:github"]);
    expect(applyAuthChoices(result, offering("google", "github"))).toBe(result);
  });

  it("takes out a preset that is not chosen, from a block map and from a flow map", () => {
    const block = `${source}  providers:\n    google: { type: google }\n${ACME}    gitlab:\n      type: gitlab\n`;
    expect(applyAuthChoices(block, offering())).toBe(`${source}  providers:\n${ACME}`);
    expect(applyAuthChoices(block, offering("gitlab"))).toBe(`${source}  providers:\n${ACME}    gitlab:\n      type: gitlab\n`);
    const flow = `${source}  providers: { google: { type: google }, gitlab: { type: gitlab }, github: { type: github } }\n`;
    expect(applyAuthChoices(flow, offering("gitlab"))).toBe(`${source}  providers: { gitlab: { type: gitlab } }\n`);
    // The declared order stays: the order of the buttons.
    expect(applyAuthChoices(flow, offering("github", "google"))).toBe(flow.replace(" gitlab: { type: gitlab },", ""));
    expect(applyAuthChoices(`${source}  providers: { google: { type: google } }\n`, offering("github"))).toBe(
      `${source}  providers: { github: { type: github } }\n`,
    );
  });

  it("takes the key out when no provider is left in it", () => {
    expect(applyAuthChoices(`${source}  providers: { google: { type: google }, github: { type: github } }\n# end\n`, offering())).toBe(
      `${source}# end\n`,
    );
    expect(applyAuthChoices(`${source}  providers:\n    github: { type: github }\n  verifyEmail: false\n`, offering())).toBe(
      `${source}  verifyEmail: false\n`,
    );
  });

  it("keeps a custom oidc provider, a microsoft one, a preset under another id, and a chosen preset with keys of its own", () => {
    const mixed = `${source}  providers:\n${ACME}${WORK}    gh: { type: github }\n    github: { type: github, url: https://git.example.com }   # GHES\n`;
    expect(applyAuthChoices(mixed, offering("github"))).toBe(mixed);
    expect(applyAuthChoices(mixed, offering())).toBe(`${source}  providers:\n${ACME}${WORK}    gh: { type: github }\n`);
    const withGoogle = applyAuthChoices(mixed, offering("google", "github"));
    expect(withGoogle).toBe(`${mixed}    google: { type: google }\n`);
    expect(providersOf(withGoogle)).toEqual(["acme:oidc", "work:microsoft", "gh:github", "github:github", "google:google"]);
    // A microsoft provider under the id microsoft (it names its tenant) is the file's, as any other.
    const microsoft = `${source}  providers:\n    microsoft: { type: microsoft, tenant: contoso.onmicrosoft.com }\n`;
    expect(applyAuthChoices(microsoft, offering())).toBe(microsoft);
  });

  it("adds nothing under an id another type holds", () => {
    const taken = `${source}  providers:\n    google:\n      type: oidc\n      issuer: https://id.example\n`;
    expect(applyAuthChoices(taken, offering("google"))).toBe(taken);
    expect(applyAuthChoices(taken, offering())).toBe(taken);
  });

  it("replaces a value that is not a map", () => {
    expect(applyAuthChoices(`${source}  providers:\n`, offering("google"))).toBe(`${source}  providers: { google: { type: google } }\n`);
    expect(applyAuthChoices(`${source}  providers: none\n`, offering("github"))).toBe(
      `${source}  providers: { github: { type: github } }\n`,
    );
    expect(applyAuthChoices(`${source}  providers:\n`, offering())).toBe(source);
  });

  it("goes into a new auth block", () => {
    const bare = "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n";
    const result = applyAuthChoices(bare, offering("google", "github"));
    expect(result).toBe(
      `${bare}auth:\n  type: jwt\n  roles: [Admin]\n  providers: { google: { type: google }, github: { type: github } }\n`,
    );
    expect(providersOf(result)).toEqual(["google:google", "github:github"]);
    expect(applyAuthChoices(result, offering("google", "github"))).toBe(result);
  });

  it("is left as it is without an answer, and under auth.type none", () => {
    const withProviders = `${source}  providers: { google: { type: google } }\n`;
    expect(applyAuthChoices(withProviders, choices)).toBe(withProviders);
    expect(applyAuthChoices(withProviders, { ...offering(), type: "none" })).toBe(withProviders.replace("type: jwt", "type: none"));
  });

  it("writes only presets the core accepts as they are", () => {
    const bare = "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n";
    const all = applyAuthChoices(bare, offering(...PRESET_PROVIDERS));
    expect(validateDomainText(all).diagnostics).toEqual([]);
    expect(providersOf(all)).toEqual(PRESET_PROVIDERS.map((type) => `${type}:${type}`));
  });
});

describe("auth.organizations", () => {
  const source =
    "name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\nauth:\n  type: jwt\n  roles: [Admin]\n";
  const choices = { ...BLOG_CHOICES, roles: ["Admin"], defaultRole: null };
  const organizing = (...organizations: string[]) => ({ ...choices, organizations });
  const organizationsOf = (text: string) => {
    const { model, diagnostics } = validateDomainText(text);
    if (!model) throw new Error(diagnostics.map(({ message }) => message).join("\n"));
    return model.auth?.organizations;
  };
  const TENANT =
    "  Project:   # the team's\n    tenant: true\n    fields:\n      title: string\n    permissions:\n      read: ['@Member(Manager)']\n";

  it("creates the key with just its roles after providers, and a rerun with the same answer changes nothing", () => {
    const withProviders = `${source}  providers: { google: { type: google } }\n# end\n`;
    const answer = { ...organizing("Owner", "Manager", "Member"), providers: ["google" as const] };
    const result = applyAuthChoices(withProviders, answer);
    expect(result).toBe(withProviders.replace("# end", "  organizations: { roles: [Owner, Manager, Member] }\n# end"));
    expect(organizationsOf(result)).toEqual({ roles: ["Owner", "Manager", "Member"], manage: ["Owner"], create: ["@Authenticated"] });
    expect(applyAuthChoices(result, answer)).toBe(result);
  });

  it("keeps every other byte of the file: comments, order, spacing", () => {
    const result = applyAuthChoices(BLOG, { ...BLOG_CHOICES, organizations: ["Owner", "Member"] });
    expect(result).toBe(BLOG.replace("setup: true }\n", "setup: true }\n  organizations: { roles: [Owner, Member] }\n"));
    expect(organizationsOf(result)?.roles).toEqual(["Owner", "Member"]);
  });

  it("changes only the roles of a block map, keeping manage, create and comments", () => {
    const block = `${source}  organizations:   # teams\n    roles:\n      - Owner\n      - Manager\n    manage: [Owner, Manager]   # who invites\n    create: [Admin]\n`;
    const result = applyAuthChoices(block, organizing("Owner", "Manager", "Member", "Guest"));
    expect(result).toBe(block.replace("      - Manager\n", "      - Manager\n      - Member\n      - Guest\n"));
    expect(organizationsOf(result)).toEqual({
      roles: ["Owner", "Manager", "Member", "Guest"],
      manage: ["Owner", "Manager"],
      create: ["Admin"],
    });
    expect(applyAuthChoices(block, organizing("Owner", "Manager"))).toBe(block);

    const flow = `${source}  organizations: { roles: [Owner, Member], manage: [Owner] }   # teams\n`;
    expect(applyAuthChoices(flow, organizing("Lead", "Owner"))).toBe(flow.replace("[Owner, Member]", "[Lead, Owner]"));
  });

  it("adds roles to a map that has none, and replaces a value that is not a map", () => {
    expect(applyAuthChoices(`${source}  organizations: { manage: [Owner] }\n`, organizing("Owner", "Member"))).toBe(
      `${source}  organizations: { roles: [Owner, Member], manage: [Owner] }\n`,
    );
    expect(applyAuthChoices(`${source}  organizations:\n    create: [Admin]\n`, organizing("Owner"))).toBe(
      `${source}  organizations:\n    roles: [Owner]\n    create: [Admin]\n`,
    );
    expect(applyAuthChoices(`${source}  organizations:\n`, organizing("Owner"))).toBe(`${source}  organizations: { roles: [Owner] }\n`);
    expect(applyAuthChoices(`${source}  organizations: yes\n`, organizing("Owner"))).toBe(`${source}  organizations: { roles: [Owner] }\n`);
  });

  it("takes the key out for no organizations, whatever it holds", () => {
    expect(applyAuthChoices(`${source}  organizations: { roles: [Owner] }\n# end\n`, organizing())).toBe(`${source}# end\n`);
    expect(
      applyAuthChoices(`${source}  organizations:\n    roles: [Owner, Member]\n    manage: [Owner]\n  verifyEmail: false\n`, organizing()),
    ).toBe(`${source}  verifyEmail: false\n`);
    expect(applyAuthChoices(source, organizing())).toBe(source);
  });

  it("goes into a new auth block, which the core accepts with a tenant entity", () => {
    const bare = `name: x\nentities:\n  User:\n    fields:\n      email: string\n      password: string\n${TENANT}`;
    const result = applyAuthChoices(bare, organizing("Owner", "Manager", "Member"));
    expect(result).toBe(`${bare}auth:\n  type: jwt\n  roles: [Admin]\n  organizations: { roles: [Owner, Manager, Member] }\n`);
    expect(validateDomainText(result).diagnostics).toEqual([]);
    expect(applyAuthChoices(result, organizing("Owner", "Manager", "Member"))).toBe(result);
  });

  it("is left as it is without an answer, and under auth.type none", () => {
    const withOrganizations = `${source}  organizations: { roles: [Owner] }\n`;
    expect(applyAuthChoices(withOrganizations, choices)).toBe(withOrganizations);
    expect(applyAuthChoices(withOrganizations, { ...organizing("Lead"), type: "none" })).toBe(
      withOrganizations.replace("type: jwt", "type: none"),
    );
    const bare = "name: x\nentities:\n  Note:\n    fields:\n      text: string\n";
    expect(applyAuthChoices(bare, { ...organizing("Owner"), type: "none", roles: [] })).toBe(`${bare}auth:\n  type: none\n`);
  });
});
