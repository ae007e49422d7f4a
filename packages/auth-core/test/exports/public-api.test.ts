import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// What users import, pinned: the names each entry point exports, read from the BUILD through the
// package's exports map, the way an installed package is loaded (Node.js's own resolution, without
// the `source` condition the tests otherwise run on).

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as {
  exports: Record<string, { source: string; types: string; default: string }>;
};

/** The names a subpath of the built package exports, sorted. */
function exportedNames(subpath: string): string[] {
  const specifier = subpath === "." ? "@domain-auth/core" : `@domain-auth/core/${subpath.slice(2)}`;
  const script = `const names = Object.keys(await import(${JSON.stringify(specifier)})).sort(); console.log(JSON.stringify(names));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "--eval", script], { cwd: PACKAGE, encoding: "utf8" }));
}

describe("the public API", () => {
  it.each([".", "./admin"])("%s is in the exports map with its source, types and build, and is built", (subpath) => {
    const paths = manifest.exports[subpath];
    expect(Object.keys(paths ?? {})).toEqual(["source", "types", "default"]);
    expect(existsSync(join(PACKAGE, paths?.default ?? "")), `${paths?.default} is missing: run npm run build`).toBe(true);
  });

  it("exports on . what an application calls: instances, servers, errors, mailers (the rest from the entry named after it)", () => {
    expect(exportedNames(".")).toEqual([
      "ApiError",
      "ConfigurationError",
      "DEFAULT_SMTP_TIMEOUT_MS",
      "EnvironmentError",
      "PEER_ADDRESS_HEADER",
      "authFromEnv",
      "createAuth",
      "createAuthFromEnv",
      "createConsoleMailer",
      "createNodeListener",
      "createSmtpMailer",
      "pathOf",
      "rawErrorResponse",
      "readSettings",
      "startLines",
      "writeError",
    ]);
  });

  it("exports on ./admin the tools beneath an instance: the store, migrations, the hasher, tokens, their rules and the admin resets", () => {
    expect(exportedNames("./admin")).toEqual([
      "HashQueueFullError",
      "MissingRefError",
      "RecordStore",
      "ReferencedError",
      "SetupCompleteError",
      "UniqueConflictError",
      "createPasswordHasher",
      "createTokenService",
      "emailProblem",
      "ensureAdministrator",
      "migrate",
      "normalizeEmail",
      "openDatabase",
      "resetSecondFactors",
      "serializeRecord",
    ]);
  });
});

describe("one home for each name", () => {
  /** Every name (values and types) each entry of the exports map exports, read from its source with the compiler. */
  function namesByEntry(): Map<string, string[]> {
    const entries = Object.entries(manifest.exports).map(([entry, paths]) => [entry, join(PACKAGE, paths.source)] as const);
    const program = ts.createProgram(
      entries.map(([, source]) => source),
      { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true },
    );
    const checker = program.getTypeChecker();
    return new Map(
      entries.map(([entry, source]) => {
        const file = program.getSourceFile(source);
        const symbol = file && checker.getSymbolAtLocation(file);
        return [entry, symbol ? checker.getExportsOfModule(symbol).map((exported) => exported.name) : []];
      }),
    );
  }

  it("no name is exported by two entries: each lives in one", () => {
    const homes = new Map<string, string[]>();
    for (const [entry, names] of namesByEntry()) {
      expect(names.length, entry).toBeGreaterThan(0);
      for (const name of names) homes.set(name, [...(homes.get(name) ?? []), entry]);
    }
    expect([...homes].filter(([, entries]) => entries.length > 1).map(([name, entries]) => `${name}: ${entries.join(", ")}`)).toEqual([]);
  });
});
