import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { afterAll, describe, expect, it } from "vitest";
import { createAuth } from "../create-auth.js";
import { ConfigurationError } from "../options.js";
import { BCRYPT_LIBRARY_VARIABLE, type BcryptLibrary, bcryptChoice, resolveBcrypt } from "./bcrypt-library.js";
import { createPasswordHasher } from "./hasher.js";
import { MAX_PASSWORD_BYTES } from "./rules.js";

interface Bcrypt {
  hashSync(password: string, salt: string | number): string;
  compareSync(password: string, hash: string): boolean;
}
const require = createRequire(import.meta.url);
const native = require("bcrypt") as Bcrypt & { genSaltSync(cost: number, minor: "a" | "b"): string };
const javascript = require("bcryptjs") as Bcrypt;
const LIBRARIES = { bcrypt: native, bcryptjs: javascript } as const;

const PASSWORDS = {
  ascii: "correct horse battery staple",
  "72 ASCII bytes": "a".repeat(MAX_PASSWORD_BYTES),
  "72 UTF-8 bytes of two-byte characters": "é".repeat(MAX_PASSWORD_BYTES / 2),
  "four-byte characters": "🔑 passwörd 密码 🔒",
};

describe("the native bcrypt and bcryptjs", () => {
  it.each(["a", "b"] as const)("make the same $2%s$ hash from the same salt", (minor) => {
    for (const password of Object.values(PASSWORDS)) {
      const salt = native.genSaltSync(4, minor);
      const hash = native.hashSync(password, salt);
      expect(hash.startsWith(`$2${minor}$04$`)).toBe(true);
      expect(javascript.hashSync(password, salt)).toBe(hash);
    }
  });

  it.each(Object.entries(PASSWORDS))("verify each other's hashes of %s, at cost 10", (_, password) => {
    for (const [maker, made] of Object.entries(LIBRARIES)) {
      const hash = made.hashSync(password, 10);
      expect(hash, maker).toMatch(/^\$2b\$10\$/);
      for (const checker of Object.values(LIBRARIES)) {
        expect(checker.compareSync(password, hash)).toBe(true);
        expect(checker.compareSync(`${password.slice(0, -1)}x`, hash)).toBe(false);
      }
    }
  });

  it("both read only the first 72 bytes: why the hasher never compares a longer password", () => {
    const stored = native.hashSync("a".repeat(MAX_PASSWORD_BYTES), 4);
    for (const library of Object.values(LIBRARIES)) expect(library.compareSync(`${"a".repeat(MAX_PASSWORD_BYTES)}b`, stored)).toBe(true);
  });
});

describe("hashers on either library", () => {
  const hashers = {
    bcrypt: createPasswordHasher({ cost: 10, threads: 1, library: "bcrypt" }),
    bcryptjs: createPasswordHasher({ cost: 10, threads: 1, library: "bcryptjs" }),
  };
  afterAll(() => Promise.all(Object.values(hashers).map((hasher) => hasher.close())));
  const pairs = (["bcrypt", "bcryptjs"] as const).flatMap((maker) => (["bcrypt", "bcryptjs"] as const).map((checker) => [maker, checker]));

  it.each(pairs)(
    "a hash made on %s verifies on %s, and the over-long guard holds",
    async (maker: BcryptLibrary, checker: BcryptLibrary) => {
      const password = PASSWORDS["72 UTF-8 bytes of two-byte characters"];
      const hash = await hashers[maker].hash(password);
      expect(await hashers[checker].verify(password, hash)).toBe(true);
      expect(await hashers[checker].verify(`${password}x`, hash)).toBe(false);
      expect(await hashers[checker].verify("é".repeat(35), hash)).toBe(false);
      expect(await hashers[checker].verifyNothing(password)).toBe(false);
    },
  );
});

describe("choosing the library", () => {
  const prebuilt = existsSync(new URL(`../../../../node_modules/bcrypt/prebuilds/${process.platform}-${process.arch}`, import.meta.url));

  it.runIf(prebuilt)("auto runs the native bcrypt where its package ships a build", () => {
    expect(resolveBcrypt("auto")).toEqual({ library: "bcrypt" });
  });

  it(`reads ${BCRYPT_LIBRARY_VARIABLE} when no option is given, the option first`, () => {
    expect(bcryptChoice(undefined, {})).toBe("auto");
    expect(bcryptChoice(undefined, { [BCRYPT_LIBRARY_VARIABLE]: "" })).toBe("auto");
    expect(bcryptChoice(undefined, { [BCRYPT_LIBRARY_VARIABLE]: "bcryptjs" })).toBe("bcryptjs");
    expect(bcryptChoice("bcrypt", { [BCRYPT_LIBRARY_VARIABLE]: "bcryptjs" })).toBe("bcrypt");
    expect(() => bcryptChoice(undefined, { [BCRYPT_LIBRARY_VARIABLE]: "argon2" })).toThrow(
      `${BCRYPT_LIBRARY_VARIABLE} must be one of auto, bcrypt, bcryptjs (got "argon2")`,
    );
  });

  it("says why bcryptjs runs when it was chosen", () => {
    expect(resolveBcrypt("bcryptjs")).toEqual({ library: "bcryptjs", notNative: expect.stringContaining(BCRYPT_LIBRARY_VARIABLE) });
  });

  it("refuses an unknown bcryptLibrary option before opening anything", async () => {
    const database = createSqliteDatabase();
    try {
      await expect(
        // @ts-expect-error: not a library
        createAuth({ domain: domainOf(BLOG_YAML), database: database.url, secret: TEST_SECRET, bcryptLibrary: "scrypt" }),
      ).rejects.toThrow(new ConfigurationError('the bcrypt library option must be one of auto, bcrypt, bcryptjs (got "scrypt")'));
    } finally {
      await database.drop();
    }
  });
});
