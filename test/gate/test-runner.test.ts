import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

/**
 * `npm test`'s runner, run for real on small suites: a suite fails whenever Vitest says so, whatever
 * its per-test counts, and the closing line and exit code say it.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function runFixture(fixture: string): { status: number | null; closing: string; output: string } {
  const result = spawnSync(process.execPath, ["scripts/test.mjs", "--config", "test/gate/fixtures/vitest.config.ts"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, RUNNER_FIXTURE: `${fixture}.fixture.ts`, CI: "true" },
    timeout: 60_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  const closing = result.stdout.trim().split("\n").at(-1) ?? "";
  return { status: result.status, closing, output };
}

describe("the test runner", () => {
  test("a suite whose beforeAll throws fails the run, its tests counted as failed, not skipped", () => {
    const { status, closing } = runFixture("before-all-throws");
    expect(closing).toBe("0 passed, 3 failed");
    expect(status).toBe(1);
  });

  test("a file that throws while loading fails the run", () => {
    const { status, closing } = runFixture("import-throws");
    expect(closing).toBe("0 passed, 1 failed");
    expect(status).toBe(1);
  });

  test("an unhandled rejection outside the assertions fails the run although every test passed", () => {
    const { status, closing } = runFixture("unhandled-rejection");
    expect(closing).toBe("1 passed, 1 failed");
    expect(status).toBe(1);
  });

  test("a failing assertion fails the run", () => {
    const { status, closing } = runFixture("failing-assertion");
    expect(closing).toBe("1 passed, 1 failed");
    expect(status).toBe(1);
  });

  test("a suite that runs no test fails the run", () => {
    const { status, closing } = runFixture("no-tests");
    expect(closing).toBe("0 passed, 1 failed");
    expect(status).toBe(1);
  });

  test("a worker that dies mid-file fails the run, the tests it left unrun counted as failed, not skipped", () => {
    const { status, closing } = runFixture("worker-crash");
    expect(closing).toMatch(/^\d+ passed, [1-9]\d* failed$/);
    expect(status).toBe(1);
  });

  test("a test skipped on purpose is counted as skipped and the run passes", () => {
    const { status, closing } = runFixture("passing-with-skip");
    expect(closing).toBe("1 passed, 0 failed, 1 skipped");
    expect(status).toBe(0);
  });
});
