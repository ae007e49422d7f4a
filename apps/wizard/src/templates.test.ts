import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateDomainText } from "@domain-auth/core/config";
import { describe, expect, it } from "vitest";
import { CACHE_COMPONENTS_VARIANT, loadManifest, renderTemplates, TEMPLATES_DIR } from "./templates.js";

const WEB = fileURLToPath(new URL("../../web/", import.meta.url));

/** The README's blog example, for when the web app has no domain.yaml yet. */
const README_BLOG = `name: blog
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Reader }
  Post:
    owner: author
    fields:
      title: { type: string, required: true }
      author: { type: ref, to: User }
    permissions:
      create: [Editor, Admin]
      read: ["*"]
      update: ["@Owner", Admin]
auth:
  type: jwt
  roles: [Admin, Editor, Reader]
`;

async function webDomainText(): Promise<string> {
  const file = join(WEB, "domain.yaml");
  return existsSync(file) ? readFile(file, "utf8") : README_BLOG;
}

function modelOf(text: string) {
  const { model, diagnostics } = validateDomainText(text);
  if (!model) throw new Error(`invalid domain: ${JSON.stringify(diagnostics)}`);
  return model;
}

describe("bridge manifest", () => {
  it("is valid and every template it lists exists", async () => {
    const manifest = await loadManifest();
    expect(manifest.templates.length).toBeGreaterThan(0);
    for (const template of manifest.templates) expect(existsSync(join(TEMPLATES_DIR, template.from)), template.from).toBe(true);
  });

  it("scaffolds the route handler under both auth types, and hasAuth templates only with jwt", async () => {
    const manifest = await loadManifest();
    const jwt = modelOf(await webDomainText());
    const none = modelOf((await webDomainText()).replace(/type: jwt/, "type: none"));
    const jwtPaths = (await renderTemplates(manifest, jwt)).map((file) => file.to);
    const nonePaths = (await renderTemplates(manifest, none)).map((file) => file.to);
    expect(jwtPaths).toContain("app/api/[...path]/route.ts");
    expect(nonePaths).toContain("app/api/[...path]/route.ts");
    const authOnly = manifest.templates.filter((template) => template.when === "hasAuth").map((template) => template.to);
    expect(nonePaths.filter((path) => authOnly.includes(path))).toEqual([]);
    expect(jwtPaths).toEqual(manifest.templates.map((template) => template.to));
  });
});

describe("a project with cacheComponents on", () => {
  it("gets the auth pages' layout and pages opting out of the prerendered shell, and every other file as without", async () => {
    const manifest = await loadManifest();
    const model = modelOf(await webDomainText());
    const plain = await renderTemplates(manifest, model);
    const cached = await renderTemplates(manifest, model, { cacheComponents: true });
    const segment = (to: string) => /^app\/\(domain-auth\)\/(?:.+\/)?(?:layout|page)\.tsx$/.test(to);
    const segments = cached.filter((file) => segment(file.to));
    expect(segments.map((file) => file.to)).toEqual(
      expect.arrayContaining(["app/(domain-auth)/layout.tsx", "app/(domain-auth)/login/page.tsx"]),
    );
    for (const file of segments) {
      expect(file.content, file.to).toBe(await readFile(join(TEMPLATES_DIR, CACHE_COMPONENTS_VARIANT, file.to), "utf8"));
      expect(file.content, file.to).toContain("export const instant = false;");
      expect(plain.find((other) => other.to === file.to)?.content, file.to).not.toContain("instant");
    }
    expect(cached.filter((file) => !segment(file.to))).toEqual(plain.filter((file) => !segment(file.to)));
  });
});

describe("the web app is what the wizard scaffolds", () => {
  it("has every file the templates render for apps/web/domain.yaml, byte for byte", async () => {
    const rendered = await renderTemplates(await loadManifest(), modelOf(await webDomainText()));
    for (const { to, content } of rendered) {
      const file = join(WEB, to);
      expect(existsSync(file), `apps/web/${to} is missing; run npm run templates:sync -w create-domain-auth after adding it`).toBe(true);
      expect(
        await readFile(file, "utf8"),
        `apps/web/${to} differs from its template; run npm run templates:sync -w create-domain-auth`,
      ).toBe(content);
    }
  });
});
