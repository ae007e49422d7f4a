import { readFileSync } from "node:fs";
import { BLOG_YAML, domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { describe, expect, it } from "vitest";
import { createAuth } from "./create-auth.js";
import { ERROR_CODES } from "./http/errors.js";
import { MAX_BODY_BYTES } from "./http/limits.js";
import { ConfigurationError, checkOptions, WHOLE_NUMBER_OPTIONS } from "./options.js";
import { EnvironmentError, readSettings } from "./settings.js";

describe("the options createAuth and readSettings share", () => {
  it("fills in every default once, for both", () => {
    const defaults = checkOptions({});
    expect(defaults).toMatchObject({ bcryptCost: 10, tokenTtlSeconds: 3600, registerLimit: 100, trustProxy: 0, corsOrigins: null });
    expect(readSettings({})).toMatchObject({
      bcryptCost: defaults.bcryptCost,
      tokenTtlSeconds: defaults.tokenTtlSeconds,
      refreshTtlSeconds: defaults.refreshTtlSeconds,
      sessionMaxAgeSeconds: defaults.sessionMaxAgeSeconds,
      registerLimit: defaults.registerLimit,
      trustProxy: defaults.trustProxy,
      port: defaults.port,
    });
  });

  it.each(
    Object.entries(WHOLE_NUMBER_OPTIONS).filter(([, spec]) => "env" in spec && "max" in spec) as [
      string,
      { env: string; min: number; max: number },
    ][],
  )("%s: one range, named by the option or by its variable", (option, spec) => {
    for (const value of [spec.min - 1, spec.max + 1, spec.min + 0.5]) {
      expect(() => checkOptions({ [option]: value })).toThrow(
        new ConfigurationError(`${option} must be a whole number from ${spec.min} to ${spec.max}, got '${value}'`),
      );
      expect(() => readSettings({ [spec.env]: String(value) })).toThrow(
        `${spec.env} must be a whole number from ${spec.min} to ${spec.max}, got '${value}'`,
      );
    }
    expect(checkOptions({ [option]: spec.max })).toMatchObject({ [option]: spec.max });
  });

  it("throws one error type from createAuth and from the environment, EnvironmentError being its other name", async () => {
    const domain = domainOf(BLOG_YAML);
    const refused = createAuth({ domain, database: "postgres://postgres@127.0.0.1:1/none", secret: TEST_SECRET, registerLimit: 0 });
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(EnvironmentError);
    expect(() => readSettings({ AUTH_REGISTER_LIMIT: "0" })).toThrow(ConfigurationError);
    await expect(createAuth({ domain, database: "file::memory:" })).rejects.toThrow(
      new ConfigurationError("a secret of at least 32 bytes is required with auth.type jwt"),
    );
    await expect(createAuth({ domain, database: "file::memory:", secret: "short" })).rejects.toThrow(
      new ConfigurationError("secret must be at least 32 bytes"),
    );
  });

  it("says which bcrypt costs production allows", () => {
    expect(() => readSettings({ NODE_ENV: "production", AUTH_BCRYPT_COST: "9" })).toThrow(
      "AUTH_BCRYPT_COST must be a whole number from 10 to 31, got '9'",
    );
    expect(readSettings({ AUTH_BCRYPT_COST: "4" }).bcryptCost).toBe(4);
  });

  it("names the setup token and the CORS origins the same way from both", () => {
    expect(() => checkOptions({ setupToken: "short" })).toThrow("setupToken must be at least 16 bytes (or unset for an anonymous setup)");
    expect(checkOptions({ setupToken: "" }).setupToken).toBeUndefined();
    expect(() => checkOptions({ corsOrigins: ["https://a.example/"] })).toThrow(
      "corsOrigins must be '*' or comma-separated origins like https://app.example.com: 'https://a.example/' is not an exact origin; write it as https://a.example",
    );
    expect(checkOptions({ corsOrigins: ["https://a.example", "https://b.example"] }).corsOrigins).toEqual([
      "https://a.example",
      "https://b.example",
    ]);
    expect(readSettings({ CORS_ORIGINS: "*" }).corsOrigins).toBe("*");
  });

  it("states the body limit from its constant", () => {
    expect(ERROR_CODES.PAYLOAD_TOO_LARGE.message).toBe(`The body is larger than ${MAX_BODY_BYTES / 1024} KiB`);
  });
});

describe("the defaults the option types state", () => {
  /** The `@default` of the JSDoc right before `declaration` in `file`; `null` when it states none. */
  function statedDefault(file: string, declaration: RegExp): string | null {
    const source = readFileSync(new URL(file, import.meta.url), "utf8");
    const at = source.search(declaration);
    if (at < 0) return null;
    const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(source.slice(0, at))?.[1] ?? "";
    return /@default (\d+)/.exec(comment)?.[1] ?? null;
  }

  it.each(Object.entries(WHOLE_NUMBER_OPTIONS).filter(([, spec]) => "default" in spec))(
    "%s: AuthSettings states the table's default, and CreateAuthOptions too where it states one",
    (name, spec) => {
      const expected = String((spec as { default: number }).default);
      expect(statedDefault("./settings.ts", new RegExp(`readonly ${name}: number;`))).toBe(expected);
      const inOptions = statedDefault("./instance/auth.ts", new RegExp(`\\b${name}\\?: number;`));
      if (inOptions !== null) expect(inOptions).toBe(expected);
    },
  );
});
