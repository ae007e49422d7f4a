import { validateDomainText } from "@domain-auth/core/config";
import { describe, expect, it } from "vitest";
import { MAIL_PLACEHOLDERS, PROVIDER_VARIABLES_HEADING, withAuthSecret, withMailPlaceholders, withProviderVariables } from "./env-file.js";
import { missingIgnoreEntries, withIgnoredEntries } from "./gitignore.js";
import { changedHunks, diffLines } from "./line-diff.js";
import { serviceNameFrom, starterDomainText } from "./starter.js";

describe("withAuthSecret", () => {
  it("creates the file when it is absent or empty", () => {
    expect(withAuthSecret(null, "s3cret")).toBe("AUTH_SECRET=s3cret\n");
    expect(withAuthSecret("", "s3cret")).toBe("AUTH_SECRET=s3cret\n");
  });

  it("keeps a file that has a secret", () => {
    expect(withAuthSecret("PORT=3001\nAUTH_SECRET=kept\n", "new")).toBeNull();
    expect(withAuthSecret('export AUTH_SECRET="kept"', "new")).toBeNull();
  });

  it("appends a secret, or fills an empty one", () => {
    expect(withAuthSecret("PORT=3001", "new")).toBe("PORT=3001\nAUTH_SECRET=new\n");
    expect(withAuthSecret("AUTH_SECRET=\nPORT=1\n", "new")).toBe("AUTH_SECRET=new\nPORT=1\n");
    expect(withAuthSecret('AUTH_SECRET=""\n', "new")).toBe("AUTH_SECRET=new\n");
  });
});

describe("withMailPlaceholders", () => {
  it("appends the e-mail settings commented out, once", () => {
    const added = withMailPlaceholders("AUTH_SECRET=s\n");
    expect(added).toBe(`AUTH_SECRET=s\n\n${MAIL_PLACEHOLDERS}`);
    expect(added).toMatch(/^# SMTP_URL=smtp:\/\/user:password@smtp\.example\.com:587$/m);
    expect(added).toMatch(/^# APP_URL=https:\/\/app\.example\.com$/m);
    expect(withMailPlaceholders(added)).toBe(added);
  });

  it("leaves a file that sets SMTP_URL, or mentions it commented out, as it is", () => {
    expect(withMailPlaceholders("SMTP_URL=smtp://mail:25\n")).toBe("SMTP_URL=smtp://mail:25\n");
    expect(withMailPlaceholders("export SMTP_URL=x")).toBe("export SMTP_URL=x");
    expect(withMailPlaceholders("#SMTP_URL=\n")).toBe("#SMTP_URL=\n");
  });
});

describe("withProviderVariables", () => {
  it("appends an empty client id and secret line for each provider, under a heading, once", () => {
    const added = withProviderVariables("AUTH_SECRET=s\n", ["google", "acme-id"]);
    expect(added).toBe(
      [
        "AUTH_SECRET=s",
        "",
        PROVIDER_VARIABLES_HEADING,
        "AUTH_PROVIDER_GOOGLE_CLIENT_ID=",
        "AUTH_PROVIDER_GOOGLE_CLIENT_SECRET=",
        "AUTH_PROVIDER_ACME_ID_CLIENT_ID=",
        "AUTH_PROVIDER_ACME_ID_CLIENT_SECRET=",
        "",
      ].join("\n"),
    );
    expect(withProviderVariables(added, ["google", "acme-id"])).toBe(added);
    expect(withProviderVariables("", ["github"])).toBe(
      `${PROVIDER_VARIABLES_HEADING}\nAUTH_PROVIDER_GITHUB_CLIENT_ID=\nAUTH_PROVIDER_GITHUB_CLIENT_SECRET=\n`,
    );
  });

  it("never changes a value, adds only what is missing, and adds a later provider under the same heading", () => {
    const filled = "AUTH_PROVIDER_GOOGLE_CLIENT_ID=123.apps\nexport AUTH_PROVIDER_GOOGLE_CLIENT_SECRET='s3cret'\n";
    expect(withProviderVariables(filled, ["google"])).toBe(filled);
    expect(withProviderVariables("AUTH_PROVIDER_GOOGLE_CLIENT_ID=123.apps", ["google"])).toBe(
      `AUTH_PROVIDER_GOOGLE_CLIENT_ID=123.apps\n\n${PROVIDER_VARIABLES_HEADING}\nAUTH_PROVIDER_GOOGLE_CLIENT_SECRET=\n`,
    );
    const first = withProviderVariables("", ["google"]);
    expect(withProviderVariables(first, ["google", "github"])).toBe(
      `${first}AUTH_PROVIDER_GITHUB_CLIENT_ID=\nAUTH_PROVIDER_GITHUB_CLIENT_SECRET=\n`,
    );
    // A variable commented out is not set: the line is added.
    expect(withProviderVariables("# AUTH_PROVIDER_GOOGLE_CLIENT_ID=old\n", ["google"])).toContain("\nAUTH_PROVIDER_GOOGLE_CLIENT_ID=\n");
    expect(withProviderVariables("PORT=1\n", [])).toBe("PORT=1\n");
  });
});

describe("withIgnoredEntries", () => {
  it("creates .gitignore with both entries", () => {
    expect(withIgnoredEntries(null)).toBe(".env.local\n.data/\n");
  });

  it("adds only what is missing, under a heading", () => {
    expect(withIgnoredEntries("node_modules\n/.data\n")).toBe("node_modules\n/.data\n\n# domain-auth\n.env.local\n");
    expect(withIgnoredEntries("node_modules")).toBe("node_modules\n\n# domain-auth\n.env.local\n.data/\n");
  });

  it("leaves a file that covers both alone", () => {
    expect(withIgnoredEntries(".env*.local\n.data/\n")).toBeNull();
    expect(missingIgnoreEntries("# .env.local\n.data\n")).toEqual([".env.local"]);
  });
});

describe("diff summary", () => {
  it("diffs lines", () => {
    expect(diffLines("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { kind: " ", text: "a" },
      { kind: "-", text: "b" },
      { kind: "+", text: "B" },
      { kind: " ", text: "c" },
      { kind: "+", text: "d" },
    ]);
  });

  it("shows changes with context and marks skipped lines", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n";
    expect(changedHunks(before, before.replace("2", "two").replace("6", "six"))).toEqual([
      "  1",
      "- 2",
      "+ two",
      "  3",
      "  …",
      "  5",
      "- 6",
      "+ six",
      "  7",
    ]);
    expect(changedHunks(before, before)).toEqual([]);
    expect(changedHunks("", "a\n")).toEqual(["+ a"]);
  });
});

describe("starter", () => {
  it("is a valid domain.yaml named after the folder", () => {
    const text = starterDomainText(serviceNameFrom("My App!"));
    expect(text).toContain("name: my-app\n");
    const { model, errorCount } = validateDomainText(text);
    expect(errorCount).toBe(0);
    expect(model?.auth?.defaultRole).toBe("Member");
    expect(model?.auth?.setupRole).toBe("Admin");
  });

  it("falls back to app for names without letters or digits", () => {
    expect(serviceNameFrom("---")).toBe("app");
    expect(serviceNameFrom("_shop_")).toBe("shop");
  });
});
