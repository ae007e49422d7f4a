import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadDomain } from "@domain-auth/core/config";
import { openApiDocument } from "@domain-auth/core/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../bin/create-domain-auth.js", import.meta.url));
const built = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const blogFixture = fileURLToPath(new URL("../../../packages/auth-core/test/fixtures/blog.domain.yaml", import.meta.url));

let dir: string;

function openapi(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, "openapi", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  if (!existsSync(built)) throw new Error("apps/wizard/dist/cli.js is missing: run `npm run build` first");
  dir = await mkdtemp(join(tmpdir(), "openapi-command-"));
  await copyFile(blogFixture, join(dir, "domain.yaml"));
  await writeFile(join(dir, "broken.yaml"), "name: blog\nentities: {}\nauth: { type: cookie }\n");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("create-domain-auth openapi", () => {
  it("prints the document the server serves for domain.yaml", async () => {
    const { status, stdout, stderr } = openapi();
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const expected = JSON.parse(JSON.stringify(openApiDocument(await loadDomain(blogFixture))));
    expect(JSON.parse(stdout)).toEqual(expected);
    expect(JSON.parse(stdout).openapi).toBe("3.1.0");
  });

  it("writes it to --out, saying where on stderr and printing nothing", async () => {
    const { status, stdout, stderr } = openapi("domain.yaml", "--out", "api.json");
    expect(status).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toBe("create-domain-auth: wrote the OpenAPI document of domain.yaml to api.json\n");
    expect(JSON.parse(readFileSync(join(dir, "api.json"), "utf8")).paths["/api/post"].post.operationId).toBe("createPost");
  });

  it("exits 1 with the problems of an invalid or missing file, and 2 on bad usage", () => {
    const broken = openapi("broken.yaml");
    expect(broken.status).toBe(1);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toMatch(/^broken\.yaml:3:\d+ {2}auth\.type {2}auth\.type 'cookie' is planned/m);
    const missing = openapi("nowhere.yaml");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe("nowhere.yaml:1:1  (root)  file not found\n");
    const usage = openapi("--output", "x.json");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("Usage: create-domain-auth openapi");
  });
});
