import { describe, expect, it } from "vitest";
import { newAppFiles } from "./new-app.js";

describe("newAppFiles", () => {
  it("styles the root layout and home page from a stylesheet: the auth pages' policy refuses style attributes", async () => {
    for (const hasAuth of [true, false]) {
      const files = new Map(
        (await newAppFiles({ name: "shop", coreVersion: "^0.1.0", hasAuth, templates: [] })).map((file) => [file.to, file.content]),
      );
      expect(files.get("app/layout.tsx")).toContain('import "./globals.css";');
      expect(files.get("app/globals.css")).toMatch(/^body \{\n {2}margin: 0;\n\}$/m);
      for (const [path, content] of files) expect(content, path).not.toMatch(/\sstyle=\{/);
      expect(files.get("app/page.tsx")).toContain('<main className="home">');
    }
  });
});
