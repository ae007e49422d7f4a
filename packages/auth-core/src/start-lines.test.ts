import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { describe, expect, it } from "vitest";
import { type CreateAuthOptions, createAuth } from "./create-auth.js";
import { startLines } from "./start-lines.js";

const ORIGIN = "http://localhost:3000";
const NATIVE = "domain-auth: passwords are hashed with the native bcrypt";
const REGISTER_WARNING =
  "domain-auth: warning: register is on: until setup is done, anyone who registers first closes setup (then only `npx create-domain-auth admin <email>` lets you in)";

/** The start lines of a fresh instance of `yaml`, and after its first user registered. */
async function linesOf(yaml: string, options: Partial<CreateAuthOptions> = {}): Promise<{ fresh: string[]; afterwards: string[] }> {
  const database = createSqliteDatabase();
  const auth = await createAuth({
    domain: domainOf(yaml),
    database: database.url,
    secret: TEST_SECRET,
    bcryptCost: 4,
    bcryptLibrary: "bcrypt",
    ...options,
  });
  try {
    const fresh = startLines(auth, ORIGIN, await auth.isSetupRequired());
    const request = new Request(`${ORIGIN}/api/user/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "first@example.com", password: "correct horse battery" }),
    });
    if (auth.endpoints?.register) expect((await auth.handle(request)).status).toBe(201);
    return { fresh, afterwards: startLines(auth, ORIGIN, await auth.isSetupRequired()) };
  } finally {
    await auth.close();
    await database.drop();
  }
}

describe("startLines", () => {
  it("warns, while setup is open, that the first registration closes it, then says where to go", async () => {
    const { fresh, afterwards } = await linesOf(BLOG_YAML);
    expect(fresh).toEqual([NATIVE, REGISTER_WARNING, `domain-auth: create the first administrator at ${ORIGIN}/setup`]);
    // A registration closed setup: the instance is now simply ready.
    expect(afterwards).toEqual([NATIVE, `domain-auth: ready at ${ORIGIN}/`]);
  });

  it("warns with SETUP_TOKEN set too: the token guards setup, not register", async () => {
    const { fresh } = await linesOf(BLOG_YAML, { setupToken: "a-setup-token-only-the-operator-knows" });
    expect(fresh).toEqual([
      NATIVE,
      REGISTER_WARNING,
      `domain-auth: setup needs the SETUP_TOKEN you set: create the first administrator at ${ORIGIN}/setup`,
    ]);
  });

  it("does not warn when register is off", async () => {
    const yaml = BLOG_YAML.replace("register: true", "register: false");
    const { fresh } = await linesOf(yaml);
    expect(fresh).toEqual([NATIVE, `domain-auth: create the first administrator at ${ORIGIN}/setup`]);
  });

  it("says first when passwords are hashed with bcryptjs, and why", async () => {
    const { afterwards } = await linesOf(BLOG_YAML, { bcryptLibrary: "bcryptjs" });
    expect(afterwards).toEqual([
      "domain-auth: passwords are hashed with bcryptjs (JavaScript, slower logins): chosen with AUTH_BCRYPT_LIBRARY or the bcryptLibrary option",
      `domain-auth: ready at ${ORIGIN}/`,
    ]);
  });

  it("says nothing of passwords without accounts (auth.type: none)", async () => {
    const database = createSqliteDatabase();
    const auth = await createAuth({ domain: domainOf(BLOG_YAML.replace("type: jwt", "type: none")), database: database.url });
    try {
      expect(startLines(auth, ORIGIN, await auth.isSetupRequired())).toEqual([`domain-auth: ready at ${ORIGIN}/`]);
    } finally {
      await auth.close();
      await database.drop();
    }
  });
});
