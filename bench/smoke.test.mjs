// Runs each in-process benchmark briefly so the suite cannot rot; no thresholds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventScale } from "./lib/events-scale.mjs";
import { hitMe, hitRefresh, prepareCore, preparePosts, startCoreServer, startFloorServer } from "./lib/http.mjs";
import { BCRYPT_COST, createOurs, createTheirs } from "./lib/in-process.mjs";
import { hashCapacityNow, hashLimits, loginLimitNow, meFloor } from "./lib/limits.mjs";
import { createListScale, measureListScale } from "./lib/list-scale.mjs";
import { alternate, closedLoop } from "./lib/load.mjs";
import { listQuerySection, renderTenantRows } from "./lib/report.mjs";
import { createTenantScale, measureTenantScale } from "./lib/tenant-scale.mjs";

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

  it("measures lists and events at scale, at a small scale", async () => {
    const lists = await createListScale(dir, { sizes: [100, 2_000], dialects: ["sqlite"] });
    const events = await createEventScale(dir, { few: 100, many: 5_000 });
    try {
      const pages = [
        ...Object.values(lists.instances).flatMap((instance) => [instance.first, instance.deep]),
        events.small.everyone,
        events.large.oneUser,
      ];
      for (const page of pages) expect((await closedLoop(page, { concurrency: 2, durationMs: 200 })).opsPerSecond).toBeGreaterThan(0);
    } finally {
      await Promise.all([lists.close(), events.close()]);
    }
  });

  it("measures searched, sorted and filtered lists beside the default order, at a small scale", async () => {
    // 2,000 posts: 20 hold the word searched for, so every page (the sort's deep one too) is a full one.
    const lists = await createListScale(dir, { sizes: [2_000], dialects: ["sqlite"], queries: true });
    try {
      const measured = await measureListScale(lists, { rounds: 1, durationMs: 100, callers: 2 });
      expect(Object.keys(measured.results).sort()).toEqual(
        ["deep", "filter", "first", "search", "sort", "sortDeep"].map((page) => `sqlite:2000:${page}`),
      );
      for (const [name, figure] of Object.entries(measured.results)) expect(figure.median, name).toBeGreaterThan(0);
      expect(listQuerySection(measured, 2).body).toContain("`sort=title`, `after` the 90 % mark");
    } finally {
      await lists.close();
    }
  });

  it("measures tenant lists at a small scale: every page is its organization's, read by one range of its index", async () => {
    const tenants = await createTenantScale(dir, { small: 100, large: 5_000, organizations: 50, share: 10, dialects: ["sqlite"] });
    try {
      // Every page (first and deep, the caller's organization, a small one, the non-tenant list) holds
      // the records written there, in order, none of another organization.
      expect(tenants.problems).toEqual([]);
      expect(tenants.counts).toEqual({ tenant: 500, plain: 500, typical: 92 });
      for (const page of ["first", "deep"]) {
        const { plan, oneRange } = tenants.plans.sqlite.large[page];
        expect(oneRange, plan).toBe(true);
      }
      const measured = await measureTenantScale(tenants, { rounds: 1, durationMs: 100, callers: 2 });
      for (const [name, figure] of Object.entries(measured.results)) {
        expect(figure.median, name).toBeGreaterThan(0);
        expect(measured.cpu[name].median, name).toBeGreaterThan(0);
      }
      expect(renderTenantRows(measured, 2)).toContain("project__org_order");
    } finally {
      await tenants.close();
    }
  });

  it("measures the limits", async () => {
    const hash = hashLimits({ cost: BCRYPT_COST, runs: 1 });
    for (const value of [hash.bcryptHashMs, hash.bcryptCompareMs, hash.scryptMs, hash.loginLimitPerSecond])
      expect(value).toBeGreaterThan(0);
    expect(hash.nativeCompareMs).toBeGreaterThan(0);
    for (const library of ["bcryptjs", "bcrypt"]) {
      expect(loginLimitNow({ cost: BCRYPT_COST, runs: 1, library })).toBeGreaterThan(0);
      expect(await hashCapacityNow({ cost: BCRYPT_COST, durationMs: 300, library })).toBeGreaterThan(0);
    }
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

  it("measures the entity list and `me` with the access cookie on the bare server, and `me` on the hand-written floor server", async () => {
    const server = await startCoreServer(dir, { name: "list" });
    let floor;
    try {
      const prepared = await preparePosts(await prepareCore(server, 0), 20);
      floor = await startFloorServer(prepared);
      const list = await (await fetch(`${prepared.url}${prepared.list.path}`, { headers: prepared.list.headers })).json();
      expect(list.items).toHaveLength(20);
      const ours = await (await fetch(`${prepared.url}${prepared.me.path}`, { headers: prepared.me.headers })).text();
      // The cookie row asks the same `me` with the access cookie: the same answer.
      expect(await (await fetch(`${prepared.url}${prepared.meCookie.path}`, { headers: prepared.meCookie.headers })).text()).toBe(ours);
      expect(await (await fetch(`${floor.url}${floor.me.path}`, { headers: floor.me.headers })).text()).toBe(ours);
      for (const run of [
        await hitMe(prepared, { connections: 2, seconds: 1, target: "list" }),
        await hitMe(prepared, { connections: 2, seconds: 1, target: "meCookie" }),
        await hitMe(floor, { connections: 2, seconds: 1 }),
      ]) {
        expect(run.ok).toBeGreaterThan(3);
        expect(run.other).toBe(0);
      }
    } finally {
      await floor?.stop();
      await server.stop();
    }
  });
});
