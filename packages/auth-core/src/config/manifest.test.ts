import { describe, expect, it } from "vitest";
import { yaml } from "../../test/fixtures/domain-text.js";
import { formatPath } from "./diagnostics.js";
import { type BridgeManifest, selectTemplates, validateManifestText } from "./manifest.js";
import type { DomainModel } from "./model.js";
import { validateDomainText } from "./validate.js";

function modelWithAuth(type: "jwt" | "none"): DomainModel {
  const { model } = validateDomainText(yaml`
    name: app
    entities: { User: { fields: { email: string, password: string } } }
    auth: { type: ${type} }
  `);
  if (!model) throw new Error("fixture must be valid");
  return model;
}

function reported(text: string) {
  return validateManifestText(text).diagnostics.map((d) => ({
    path: formatPath(d.path),
    line: d.line,
    column: d.column,
    message: d.message,
  }));
}

const manifestText = yaml`
  templates:
    - from: next/app/api/[...path]/route.ts
      to: app/api/[...path]/route.ts
      when: hasAuth
    - from: next/app/layout.tsx
      to: app/layout.tsx
`;

describe("validateManifestText", () => {
  it("accepts a valid manifest", () => {
    const { manifest, diagnostics } = validateManifestText(manifestText);
    expect(diagnostics).toEqual([]);
    expect(manifest?.templates).toHaveLength(2);
    expect(manifest?.templates[0]?.when).toBe("hasAuth");
  });

  it("rejects an unknown when condition (rule 6), with a hint", () => {
    const text = yaml`
      templates:
        - from: a.ts
          to: a.ts
          when: hasAut
        - from: b.ts
          to: b.ts
          when: isAdmin
    `;
    expect(validateManifestText(text).manifest).toBeNull();
    expect(reported(text)).toEqual([
      { path: "templates[0].when", line: 4, column: 11, message: "unknown condition 'hasAut' (did you mean 'hasAuth'?)" },
      { path: "templates[1].when", line: 7, column: 11, message: "unknown condition 'isAdmin' (known: hasAuth)" },
    ]);
  });

  it("reports unknown and missing keys, wrong types and paths outside the project", () => {
    const text = yaml`
      templates:
        - from: /etc/passwd
          to: ../outside.ts
        - form: a.ts
          to: 3
        - to: b.ts
          when: 1
    `;
    expect(reported(text)).toEqual([
      { path: "templates[0].from", line: 2, column: 11, message: "must be a relative path inside the project" },
      { path: "templates[0].to", line: 3, column: 9, message: "must be a relative path inside the project" },
      { path: "templates[1].form", line: 4, column: 5, message: "unknown key 'form' (did you mean 'from'?)" },
      { path: "templates[1].to", line: 5, column: 9, message: "expected a string, got number 3" },
      { path: "templates[2].from", line: 6, column: 5, message: "missing required key 'from'" },
      { path: "templates[2].when", line: 7, column: 11, message: "expected a string, got number 1" },
    ]);
  });

  it("hints the root keys at the root", () => {
    expect(reported("templtes: []\n")).toEqual([
      { path: "templtes", line: 1, column: 1, message: "unknown key 'templtes' (did you mean 'templates'?)" },
    ]);
  });

  it("reports a syntax error at the parser's position", () => {
    const { manifest, diagnostics } = validateManifestText("templates:\n  - from: [a\n");
    expect(manifest).toBeNull();
    expect(diagnostics).toEqual([expect.objectContaining({ severity: "error", path: [], line: 3, column: 1 })]);
  });
});

describe("selectTemplates", () => {
  const manifest = validateManifestText(manifestText).manifest as BridgeManifest;

  it("writes hasAuth templates when auth.type is jwt", () => {
    expect(selectTemplates(manifest, modelWithAuth("jwt")).map((template) => template.to)).toEqual([
      "app/api/[...path]/route.ts",
      "app/layout.tsx",
    ]);
  });

  it("skips hasAuth templates when auth.type is none", () => {
    expect(selectTemplates(manifest, modelWithAuth("none")).map((template) => template.to)).toEqual(["app/layout.tsx"]);
  });
});
