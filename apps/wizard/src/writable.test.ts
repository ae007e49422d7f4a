import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkWritable } from "./writable.js";

// A folder the wizard may not write in is tested with the built CLI, run as another user, in
// test/terminal.test.ts: as root (as the tests may run) every folder here is writable.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "writable-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("checkWritable", () => {
  it("accepts a folder it may write in, and a folder still to create in one", async () => {
    expect(await checkWritable(dir, { shown: ".", cwd: dir })).toBeUndefined();
    expect(await checkWritable(join(dir, "my-app", "web"), { shown: "my-app/web", cwd: dir })).toBeUndefined();
  });

  it("names the folder as typed, or the parent it would create it in", async () => {
    const readOnly = "/proc/self";
    expect(await checkWritable(readOnly, { shown: ".", cwd: readOnly })).toMatch(/^Cannot write in this folder \(/);
    expect(await checkWritable(join(readOnly, "my-app"), { shown: "my-app", cwd: readOnly })).toMatch(
      /^Cannot create my-app in this folder \(.*\); pick a folder you may change\.$/,
    );
  });
});
