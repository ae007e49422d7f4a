import { describe, expect, it } from "vitest";
import { editNextConfig, newNextConfig } from "./next-config.js";

/** next.config.ts as create-next-app 16.4.3 writes it with its default answers. */
const CREATE_NEXT_APP_TS = `import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  /* config options here */
  cacheComponents: true,
  partialPrefetching: true,
  turbopack: {
    rules: {
      "*.css": {
        loaders: ["@tailwindcss/turbopack"],
        as: "*.css",
      },
    },
  },
};

export default nextConfig;
`;

/** next.config.mjs as create-next-app 16.4.3 writes it with --js. */
const CREATE_NEXT_APP_MJS = `/** @type {import('next').NextConfig} */
const nextConfig = {
  /* config options here */
  cacheComponents: true,
  partialPrefetching: true,
};

export default nextConfig;
`;

async function edited(text: string): Promise<string> {
  const result = await editNextConfig(text);
  if (result.kind !== "edited") throw new Error(`expected an edit, got ${JSON.stringify(result)}`);
  return result.content;
}

describe("editNextConfig", () => {
  it("adds the options to create-next-app's config, changing no other byte", async () => {
    const result = await edited(CREATE_NEXT_APP_TS);
    expect(result).toBe(
      CREATE_NEXT_APP_TS.replace(
        "  },\n};",
        '  },\n  serverExternalPackages: ["@domain-auth/core"],\n  poweredByHeader: false,\n  experimental: { authInterrupts: true },\n};',
      ),
    );
    expect(await editNextConfig(result)).toEqual({ kind: "unchanged" });
  });

  it("edits the .mjs variant, keeping its JSDoc type comment", async () => {
    const result = await edited(CREATE_NEXT_APP_MJS);
    expect(result).toBe(
      CREATE_NEXT_APP_MJS.replace(
        "partialPrefetching: true,\n",
        'partialPrefetching: true,\n  serverExternalPackages: ["@domain-auth/core"],\n  poweredByHeader: false,\n  experimental: { authInterrupts: true },\n',
      ),
    );
  });

  it("fills create-next-app's older, empty config under its comment", async () => {
    const text =
      'import type { NextConfig } from "next";\n\nconst nextConfig: NextConfig = {\n  /* config options here */\n};\n\nexport default nextConfig;\n';
    expect(await edited(text)).toBe(
      text.replace(
        "here */\n",
        'here */\n  serverExternalPackages: ["@domain-auth/core"],\n  poweredByHeader: false,\n  experimental: { authInterrupts: true },\n',
      ),
    );
  });

  it("appends to an existing serverExternalPackages in the file's quote style", async () => {
    const text =
      "module.exports = {\n  serverExternalPackages: ['sharp'], // images\n  poweredByHeader: false,\n  experimental: { authInterrupts: true },\n}\n";
    expect(await edited(text)).toBe(text.replace("['sharp']", "['sharp', '@domain-auth/core']"));
    const multiline =
      'export default {\n  serverExternalPackages: [\n    "sharp",\n    "pino"\n  ],\n  poweredByHeader: true,\n  experimental: { authInterrupts: false }\n}\n';
    expect(await edited(multiline)).toBe(multiline.replace('"pino"\n', '"pino",\n    "@domain-auth/core"\n'));
  });

  it("keeps comments and a style without trailing commas", async () => {
    const text = "// my config\nconst config = {\n    reactStrictMode: true // strict\n} satisfies NextConfig\nexport default config\n";
    expect(await edited(text)).toBe(
      '// my config\nconst config = {\n    reactStrictMode: true, // strict\n    serverExternalPackages: ["@domain-auth/core"],\n    poweredByHeader: false,\n    experimental: { authInterrupts: true }\n} satisfies NextConfig\nexport default config\n',
    );
  });

  it("edits a one-line object on its line", async () => {
    expect(await edited("export default {}\n")).toBe(
      'export default { serverExternalPackages: ["@domain-auth/core"], poweredByHeader: false, experimental: { authInterrupts: true } }\n',
    );
    expect(await edited("export default { images: {} };\n")).toBe(
      'export default { images: {}, serverExternalPackages: ["@domain-auth/core"], poweredByHeader: false, experimental: { authInterrupts: true } };\n',
    );
  });

  it("leaves a config that has every option unchanged, authInterrupts as the project set it", async () => {
    const text =
      'export default { serverExternalPackages: ["@domain-auth/core", "sharp"], poweredByHeader: true, experimental: { authInterrupts: false } };\n';
    expect(await editNextConfig(text)).toEqual({ kind: "unchanged" });
  });

  it("adds authInterrupts to the project's own experimental options", async () => {
    const text =
      'export default {\n  experimental: {\n    typedEnv: true,\n  },\n  serverExternalPackages: ["@domain-auth/core"],\n  poweredByHeader: false,\n};\n';
    expect(await edited(text)).toBe(text.replace("typedEnv: true,\n", "typedEnv: true,\n    authInterrupts: true,\n"));
    const oneLine = 'export default { experimental: {}, serverExternalPackages: ["@domain-auth/core"], poweredByHeader: false };\n';
    expect(await edited(oneLine)).toBe(oneLine.replace("experimental: {}", "experimental: { authInterrupts: true }"));
    const computed = await editNextConfig("const base = {};\nexport default { experimental: base };\n");
    expect(computed).toMatchObject({ kind: "refused", reason: expect.stringMatching(/experimental is not an object literal/) });
  });

  it.each([
    ["a wrapped config", 'import withMDX from "@next/mdx";\nexport default withMDX({ reactStrictMode: true });\n', /wraps the config/],
    ["a function", "export default (phase) => ({ reactStrictMode: true });\n", /function/],
    ["a spread", "const base = {};\nexport default { ...base };\n", /spreads/],
    ["a computed list", "const list = [];\nexport default { serverExternalPackages: list };\n", /not an array literal/],
    ["no export", "const nextConfig = {};\n", /no default export/],
    ["a syntax error", "export default {\n", /does not parse/],
  ])("refuses %s", async (_, text, reason) => {
    const result = await editNextConfig(text);
    expect(result).toMatchObject({ kind: "refused", reason: expect.stringMatching(reason) });
  });

  it("writes a new config that it would leave as it is", async () => {
    expect(await editNextConfig(newNextConfig())).toEqual({ kind: "unchanged" });
  });
});
