import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { describe, expect, it } from "vitest";
import { useInstance } from "../support/instance.js";

/** The blog with providers declared under `auth`. */
const withProviders = (providers: string) => BLOG_YAML.replace("auth:\n  type: jwt\n", `auth:\n  type: jwt\n  providers:\n${providers}`);

const PROVIDERS = `    github: { type: github }
    acme: { type: oidc, issuer: "https://id.acme.example", name: Acme SSO }
    google: { type: google }
`;

describe.each(BACKENDS)("GET providers on $name", (backend) => {
  const instance = useInstance(backend.create, withProviders(PROVIDERS), {
    providers: Object.fromEntries(
      ["github", "acme", "google"].map((id) => [id, { clientId: `${id}-client`, clientSecret: `${id}-secret` }]),
    ),
  });

  it("lists the declared providers in their order, each with its button's name", async () => {
    const answer = await instance.api.get("/api/user/providers");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      items: [
        { id: "github", name: "GitHub", type: "github" },
        { id: "acme", name: "Acme SSO", type: "oidc" },
        { id: "google", name: "Google", type: "google" },
      ],
    });
  });
});

describe("GET providers without any", () => {
  const instance = useInstance(BACKENDS[0].create);

  it("answers an empty list: a page may always ask", async () => {
    expect((await instance.api.get("/api/user/providers")).body).toEqual({ items: [] });
  });
});
