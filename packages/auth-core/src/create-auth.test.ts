import { fileURLToPath } from "node:url";
import { createSqliteDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { describe, expect, it, vi } from "vitest";
import { useInstance } from "../test/support/instance.js";
import { PEER_ADDRESS_HEADER } from "./client-address.js";
import { DomainConfigError } from "./config/index.js";
import { createAuth } from "./create-auth.js";

describe("createAuth without a recorded client address", () => {
  const instance = useInstance(createSqliteDatabase);

  it("warns once per process, and not for requests that carry one", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const body = { email: "nobody@example.com", password: "wrong password" };
      await instance.api.post("/api/user/login", body, { headers: { [PEER_ADDRESS_HEADER]: "10.0.0.1" } });
      expect(warn).not.toHaveBeenCalled();
      await instance.api.post("/api/user/login", body);
      await instance.api.post("/api/user/login", body);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain(PEER_ADDRESS_HEADER);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("createAuth options", () => {
  it("refuses a register limit or hash queue it cannot use, before opening the database", async () => {
    const base = { domain: domainOf(BLOG_YAML), database: "postgres://postgres@127.0.0.1:1/none", secret: TEST_SECRET };
    for (const registerLimit of [0, 1.5, Number.NaN]) await expect(createAuth({ ...base, registerLimit })).rejects.toThrow(/registerLimit/);
    for (const maxHashQueue of [-1, 0.5]) await expect(createAuth({ ...base, maxHashQueue })).rejects.toThrow(/maxHashQueue/);
  });
});

describe("createAuth's domain", () => {
  const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

  it("reads a domain.yaml given by its path", async () => {
    const auth = await createAuth({ domain: fixture("blog.domain.yaml"), database: "file::memory:", secret: TEST_SECRET });
    try {
      expect(auth.model.entities.map((entity) => entity.name)).toEqual(domainOf(BLOG_YAML).entities.map((entity) => entity.name));
      const status = await auth.handle(new Request("http://localhost/api/user/setup"));
      expect(await status.json()).toEqual({ setupRequired: true });
    } finally {
      await auth.close();
    }
  });

  it("refuses an invalid one with each problem's place, before opening the database", async () => {
    const refused = createAuth({ domain: fixture("invalid.domain.yaml"), database: "postgres://postgres@127.0.0.1:1/none" });
    await expect(refused).rejects.toThrow(DomainConfigError);
    await expect(refused).rejects.toThrow(/invalid\.domain\.yaml:\d+:\d+/);
  });
});

describe("createAuth's providers", () => {
  const withProvider = domainOf(
    BLOG_YAML.replace(
      "auth:\n  type: jwt\n",
      'auth:\n  type: jwt\n  providers:\n    acme: { type: oidc, issuer: "https://id.acme.example" }\n',
    ),
  );
  const base = { domain: withProvider, database: "postgres://postgres@127.0.0.1:1/none", secret: TEST_SECRET };

  it("needs the client id and secret of every declared provider, and none of an undeclared one, before opening the database", async () => {
    await expect(createAuth(base)).rejects.toThrow("providers.acme.clientId is required (AUTH_PROVIDER_ACME_CLIENT_ID)");
    await expect(createAuth({ ...base, providers: { acme: { clientId: "id", clientSecret: "" } } })).rejects.toThrow(
      "providers.acme.clientSecret is required (AUTH_PROVIDER_ACME_CLIENT_SECRET)",
    );
    const typo = { acme: { clientId: "id", clientSecret: "secret" }, acmee: { clientId: "id", clientSecret: "secret" } };
    await expect(createAuth({ ...base, providers: typo })).rejects.toThrow("providers.acmee is not a provider of auth.providers");
  });
});
