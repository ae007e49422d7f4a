import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { Document, type ISpectralDiagnostic, Spectral } from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { describe, expect, it } from "vitest";
import { loadDomain } from "../../src/config/index.js";
import { openApiDocument } from "../../src/openapi/index.js";
import { fixturePath } from "../fixtures/domain-text.js";

/**
 * Spectral's `oas` ruleset (what API linters and gateways hold a document to) finds nothing to say
 * of the documents the server serves: no error, no warning, for every domain the tests serve.
 */

const DOMAINS = [
  { name: "blog", model: async () => domainOf(BLOG_YAML) },
  { name: "web sample", model: () => loadDomain(new URL("../../../../apps/web/domain.yaml", import.meta.url).pathname) },
  { name: "shop", model: () => loadDomain(fixturePath("shop.domain.yaml")) },
  { name: "open", model: () => loadDomain(fixturePath("open.domain.yaml")) },
  { name: "required second factors", model: async () => domainOf(`${BLOG_YAML}  mfa: { required: [Admin] }\n`) },
];

/** Spectral's findings of a document, as lines (severity 0 is an error, 1 a warning). */
async function findings(document: unknown): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, "recommended"]] });
  const results: ISpectralDiagnostic[] = await spectral.run(new Document(JSON.stringify(document, null, 2), Json));
  return results.filter((result) => result.severity <= 1).map((result) => `${result.code} at ${result.path.join(".")}: ${result.message}`);
}

describe.each(DOMAINS)("the $name document under Spectral's oas rules", ({ model }) => {
  it("has no error and no warning", async () => {
    expect(await findings(openApiDocument(await model()))).toEqual([]);
  });
});
