import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { newPackageJson, SCAFFOLD_PACKAGES, withDomainAuth } from "./package-json.js";

/** package.json as create-next-app 16.4.3 writes it (shortened). */
const CREATE_NEXT_APP = `{
  "name": "my-app",
  "version": "0.1.0",
  "private": true,
  "scripts": {
    "dev": "next dev",
    "build": "next build",
    "start": "next start",
    "lint": "eslint"
  },
  "dependencies": {
    "next": "16.4.3",
    "react": "19.3.0",
    "react-dom": "19.3.0"
  },
  "devDependencies": {
    "typescript": "^5"
  }
}
`;

describe("withDomainAuth", () => {
  it("adds the core and @next/env at the project's Next.js version, in order, and points start at the production server", () => {
    const edit = withDomainAuth(CREATE_NEXT_APP, { version: "^0.1.0", keepStart: false });
    expect(edit).toMatchObject({
      addedDependencies: ["@domain-auth/core", "@next/env", "swagger-ui-dist", "@simplewebauthn/browser", "better-sqlite3"],
      changedStart: true,
    });
    expect(edit.content).toBe(
      CREATE_NEXT_APP.replace('"start": "next start"', '"start": "node server.mjs"')
        .replace(
          '"dependencies": {\n',
          `"dependencies": {\n    "@domain-auth/core": "^0.1.0",\n    "@next/env": "16.4.3",\n    "@simplewebauthn/browser": "${SCAFFOLD_PACKAGES["@simplewebauthn/browser"]}",\n    "better-sqlite3": "${SCAFFOLD_PACKAGES["better-sqlite3"]}",\n`,
        )
        .replace('"react-dom": "19.3.0"\n', `"react-dom": "19.3.0",\n    "swagger-ui-dist": "${SCAFFOLD_PACKAGES["swagger-ui-dist"]}"\n`)
        // swagger-ui-dist's @scarf/scarf sends install-time analytics unless the project's package.json says no.
        .replace('    "typescript": "^5"\n  }\n}', '    "typescript": "^5"\n  },\n  "scarfSettings": {\n    "enabled": false\n  }\n}'),
    );
    expect(withDomainAuth(edit.content as string, { version: "^0.1.0", keepStart: false })).toEqual({
      content: null,
      addedDependencies: [],
      addedDevDependencies: [],
      changedStart: false,
      addedScarfSettings: false,
    });
  });

  it("keeps the stock start script with keepStart, and any other start script", () => {
    const kept = withDomainAuth(CREATE_NEXT_APP, { version: "^0.1.0", keepStart: true });
    expect(kept.content).toContain('"start": "next start"');
    const custom = CREATE_NEXT_APP.replace('"next start"', '"next start -p 4000"');
    expect(withDomainAuth(custom, { version: "^0.1.0", keepStart: false }).content).toContain('"start": "next start -p 4000"');
  });

  it("keeps an existing core dependency, in either list, at its version", () => {
    const listed = CREATE_NEXT_APP.replace(
      '"typescript": "^5"',
      '"@domain-auth/core": "file:../core.tgz",\n    "@simplewebauthn/browser": "14.0.0",\n    "better-sqlite3": "12.0.0",\n    "swagger-ui-dist": "5.30.0",\n    "typescript": "^5"',
    );
    expect(withDomainAuth(listed, { version: "^0.1.0", keepStart: true })).toMatchObject({ addedDependencies: ["@next/env"] });
    const all = listed
      .replace('"typescript"', '"@next/env": "16.4.3",\n    "typescript"')
      .replace('"private": true,', '"private": true,\n  "scarfSettings": { "enabled": true },');
    // The project's own scarfSettings are its choice.
    expect(withDomainAuth(all, { version: "^0.1.0", keepStart: true })).toMatchObject({ content: null, addedDependencies: [] });
  });

  it("creates dependencies before devDependencies, keeping tabs and a missing final newline", () => {
    const text = '{\n\t"name": "x",\n\t"devDependencies": {\n\t\t"next": "16"\n\t}\n}';
    expect(withDomainAuth(text, { version: "^0.1.0", keepStart: false }).content).toBe(
      '{\n\t"name": "x",\n\t"dependencies": {\n\t\t"@domain-auth/core": "^0.1.0",\n\t\t"@next/env": "16",\n\t\t"swagger-ui-dist": "^5.35.0",\n\t\t"@simplewebauthn/browser": "^14.0.0",\n\t\t"better-sqlite3": "^12.6.2"\n\t},\n\t"devDependencies": {\n\t\t"next": "16"\n\t},\n\t"scarfSettings": {\n\t\t"enabled": false\n\t}\n}',
    );
  });

  it("adds dev dependencies in order unless listed in either list, creating devDependencies when there is none", () => {
    const typescript = { "@types/node": "^20.19.0", "@types/react": "^19.2.0", typescript: "~5.9.3" };
    const edit = withDomainAuth(CREATE_NEXT_APP, { version: "^0.1.0", keepStart: true, devDependencies: typescript });
    expect(edit).toMatchObject({ addedDevDependencies: ["@types/node", "@types/react"] });
    expect(edit.content).toContain(
      '"devDependencies": {\n    "@types/node": "^20.19.0",\n    "@types/react": "^19.2.0",\n    "typescript": "^5"\n  },\n  "scarfSettings": {\n    "enabled": false\n  }\n}\n',
    );
    expect(withDomainAuth(edit.content as string, { version: "^0.1.0", keepStart: true, devDependencies: typescript })).toMatchObject({
      content: null,
      addedDevDependencies: [],
    });
    const none =
      '{ "dependencies": { "next": "16", "@domain-auth/core": "1", "@next/env": "16", "swagger-ui-dist": "5", "@simplewebauthn/browser": "14", "better-sqlite3": "12", "@types/node": "20" } }\n';
    const created = withDomainAuth(none, { version: "1", keepStart: true, devDependencies: typescript });
    expect(created.addedDependencies).toEqual([]);
    expect(JSON.parse(created.content as string).devDependencies).toEqual({ "@types/react": "^19.2.0", typescript: "~5.9.3" });
  });

  it("appends to unsorted dependencies", () => {
    const text = '{ "dependencies": { "react": "19", "next": "16" } }\n';
    expect(Object.keys(JSON.parse(withDomainAuth(text, { version: "1", keepStart: false }).content as string).dependencies)).toEqual([
      "react",
      "next",
      "@domain-auth/core",
      "@next/env",
      "swagger-ui-dist",
      "@simplewebauthn/browser",
      "better-sqlite3",
    ]);
  });
});

describe("newPackageJson", () => {
  it("pins what the wizard was built against and starts the production server", () => {
    const manifest = JSON.parse(newPackageJson({ name: "shop", coreVersion: "^0.1.0", versions: { next: "16.4.5", react: "^19.3.1" } }));
    expect(manifest).toMatchObject({
      name: "shop",
      scripts: { dev: "next dev", build: "next build", start: "node server.mjs" },
      dependencies: { "@domain-auth/core": "^0.1.0", next: "16.4.5", react: "^19.3.1", "react-dom": "latest" },
      scarfSettings: { enabled: false },
    });
  });
});

describe("the packages the scaffold needs", () => {
  it("are added at the ranges apps/web builds and tests its pages with", () => {
    const web = JSON.parse(readFileSync(new URL("../../web/package.json", import.meta.url), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const created = JSON.parse(newPackageJson({ name: "x", coreVersion: "^0.1.0", versions: {} })).dependencies;
    for (const [name, range] of Object.entries(SCAFFOLD_PACKAGES)) {
      expect(web.dependencies[name], name).toBe(range);
      expect(created[name], name).toBe(range);
    }
  });
});
