// Runs each in-process benchmark briefly so the suite cannot rot; no thresholds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hitRefresh, prepareCore, startCoreServer } from "./lib/http.mjs";
import { BCRYPT_COST, createOurs, createTheirs } from "./lib/in-process.mjs";
import { hashCapacityNow, hashLimits, loginLimitNow, meFloor } from "./lib/limits.mjs";
import { alternate, closedLoop } from "./lib/load.mjs";

describe("benchmarks, briefly", () => {
  let dir;
  let contenders;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "domain-auth-bench-smoke-"));
    contenders = [await createOurs(dir), await createTheirs(dir)];
  });
  afterAll(async () => {
    await Promise.all((contenders ?? []).map((contender) => contender.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const operation of ["me", "register", "login"]) {
    it(`measures ${operation} of domain-auth and Better Auth in turns`, async () => {
      const results = await alternate(
        contenders.map((contender) => ({
          name: contender.name,
          measure: async () =>
            (await closedLoop(contender[operation], { concurrency: 10, durationMs: operation === "me" ? 500 : 1000 })).opsPerSecond,
        })),
        1,
      );
      for (const contender of contenders) expect(results[contender.name].median).toBeGreaterThan(0);
    });
  }

  it("measures the limits", async () => {
    const hash = hashLimits({ cost: BCRYPT_COST, runs: 1 });
    for (const value of [hash.bcryptHashMs, hash.bcryptCompareMs, hash.scryptMs, hash.loginLimitPerSecond])
      expect(value).toBeGreaterThan(0);
    expect(loginLimitNow({ cost: BCRYPT_COST, runs: 1 })).toBeGreaterThan(0);
    expect(await hashCapacityNow({ cost: BCRYPT_COST, durationMs: 300 })).toBeGreaterThan(0);
    const floor = await meFloor(contenders[0], { batches: 1, size: 50 });
    expect(floor.verifyMs).toBeGreaterThan(0);
    expect(floor.readMs).toBeGreaterThan(0);
    expect(floor.sessionReadMs).toBeGreaterThan(0);
  });

  it("measures refresh over HTTP on the bare server, each connection spending its own chain of refresh tokens", async () => {
    const server = await startCoreServer(dir);
    try {
      const prepared = await prepareCore(server, 2);
      const first = await hitRefresh(prepared, { connections: 3, seconds: 1 });
      const second = await hitRefresh(prepared, { connections: 3, seconds: 1 });
      for (const run of [first, second]) {
        expect(run.ok).toBeGreaterThan(3);
        expect(run.other).toBe(0);
      }
    } finally {
      await server.stop();
    }
  });
});
