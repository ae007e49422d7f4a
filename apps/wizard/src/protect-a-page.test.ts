import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { INSTANT_LINE, PROTECTED_PAGES_LINE, protectAPage, protectedPageSource } from "./protect-a-page.js";

const read = (path: string) => readFile(new URL(`../../../${path}`, import.meta.url), "utf8");

/** The fenced code blocks of a Markdown text that start with `firstLine`. */
function blocksStartingWith(markdown: string, firstLine: string): string[] {
  return [...markdown.matchAll(/```\w*\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? "")
    .filter((block) => block.startsWith(`${firstLine}\n`));
}

describe("the protected page the next steps print", () => {
  it("is the page README.md and docs/web.md show, in a project with cacheComponents on", async () => {
    const page = `// app/dashboard/page.tsx\n${protectedPageSource(true)}\n`;
    for (const doc of ["README.md", "docs/web.md"]) {
      expect(blocksStartingWith(await read(doc), "// app/dashboard/page.tsx"), doc).toEqual([page]);
      expect(await read(doc), doc).toContain(`// proxy.ts\n${PROTECTED_PAGES_LINE}\n`);
    }
  });

  it("is what docs/wizard.md says the wizard prints", async () => {
    const printed = protectAPage({ cacheComponents: true, sourceDir: "" }).join("\n");
    expect(await read("docs/wizard.md")).toContain(`\`\`\`\n${printed}\n\`\`\``);
  });

  it("names the list the scaffolded proxy.ts declares", async () => {
    const proxy = await read("apps/web/proxy.ts");
    expect(proxy).toContain(PROTECTED_PAGES_LINE.replace('[{ path: "/dashboard" }]', "[]"));
    expect(proxy).toContain("protect: PROTECTED_PAGES");
  });

  it("has the instant line only under cacheComponents, and src/ paths in a src/app project", () => {
    expect(protectedPageSource(true)).toContain(INSTANT_LINE);
    expect(protectedPageSource(false)).not.toContain("instant");
    const lines = protectAPage({ cacheComponents: false, sourceDir: "src/" });
    expect(lines).toContain("  // src/app/dashboard/page.tsx");
    expect(lines.join("\n")).toContain("In src/proxy.ts, for a 307");
    expect(protectAPage({ cacheComponents: false, sourceDir: "", ownProxy: "middleware.ts" }).join("\n")).toContain(
      'In middleware.ts, for a 307 to /login or a 403 before it renders:\n  withSession(request, { protect: [{ path: "/dashboard" }], respond })',
    );
  });
});
