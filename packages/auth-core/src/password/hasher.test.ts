import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import type { BcryptLibrary } from "./bcrypt-library.js";
import { createPasswordHasher, HashQueueFullError } from "./hasher.js";

// Every test runs on both implementations: the native bcrypt and the bcryptjs fallback.
const LIBRARIES: readonly BcryptLibrary[] = ["bcrypt", "bcryptjs"];

describe.each(LIBRARIES)("password hasher on %s", (library) => {
  const hasher = createPasswordHasher({ cost: 10, threads: 2, library });
  afterAll(() => hasher.close());

  it("runs the library asked for", () => {
    expect(hasher.implementation.library).toBe(library);
  });

  it("hashes with bcrypt at the given cost and verifies", async () => {
    const hash = await hasher.hash("correct horse");
    expect(hash).toMatch(/^\$2[ab]\$10\$/);
    expect(await hasher.verify("correct horse", hash)).toBe(true);
    expect(await hasher.verify("correct horsf", hash)).toBe(false);
  });

  it("never compares a password bcrypt would truncate", async () => {
    const hash = await hasher.hash("a".repeat(72));
    expect(await hasher.verify("a".repeat(72), hash)).toBe(true);
    expect(await hasher.verify(`${"a".repeat(72)}b`, hash)).toBe(false);
  });

  it("spends a comparison on unknown accounts and says no", async () => {
    expect(await hasher.verifyNothing("whatever password")).toBe(false);
  });

  it("keeps the event loop free while hashing", async () => {
    const lags: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      lags.push(now - last - 5);
      last = now;
    }, 5);
    await Promise.all(Array.from({ length: 4 }, () => hasher.hash("keep the loop free")));
    clearInterval(timer);
    lags.sort((a, b) => a - b);
    expect(lags.length).toBeGreaterThan(5);
    // One hash at cost 10 takes tens of milliseconds; on the main thread a tick would wait that long.
    expect(lags[Math.floor(lags.length / 2)]).toBeLessThan(20);
  });

  it.runIf(process.platform === "linux")("hashes on threads nicer than the process, so requests get the CPU first", async () => {
    await hasher.hash("start a hashing thread");
    const niceness = (thread: string) => Number(readFileSync(`/proc/self/task/${thread}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
    const threads = readdirSync("/proc/self/task").map(niceness);
    expect(Math.max(...threads)).toBeGreaterThan(getPriority());
  });
});

describe.each(LIBRARIES)("password hasher queue on %s", (library) => {
  /** Settles every promise, noting the order in which they settled. */
  async function settleInOrder<T>(promises: Promise<T>[]): Promise<{ order: number[]; results: PromiseSettledResult<T>[] }> {
    const order: number[] = [];
    const results = await Promise.allSettled(promises.map((promise, index) => promise.finally(() => order.push(index))));
    return { order, results };
  }

  it("refuses work past the running threads and maxQueue at once, with a named error", async () => {
    const hasher = createPasswordHasher({ cost: 10, threads: 1, maxQueue: 1, library });
    try {
      const { order, results } = await settleInOrder(Array.from({ length: 6 }, (_, index) => hasher.hash(`password ${index}`)));
      // One running, one waiting; the other four are refused before either hash is done.
      expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected", "rejected", "rejected", "rejected"]);
      for (const result of results.slice(2)) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(HashQueueFullError);
      expect(order.slice(0, 4).sort()).toEqual([2, 3, 4, 5]);
      // Once drained, there is room again.
      expect(await hasher.hash("after the flood")).toMatch(/^\$2[ab]\$10\$/);
    } finally {
      await hasher.close();
    }
  });

  it("bounds comparisons too, and does not keep a refused dummy hash", async () => {
    const hasher = createPasswordHasher({ cost: 10, threads: 1, maxQueue: 0, library });
    try {
      const stored = await hasher.hash("correct horse");
      const busy = hasher.hash("keeps the only thread busy");
      await expect(hasher.verify("correct horse", stored)).rejects.toBeInstanceOf(HashQueueFullError);
      await expect(hasher.verifyNothing("correct horse")).rejects.toBeInstanceOf(HashQueueFullError);
      await busy;
      expect(await hasher.verify("correct horse", stored)).toBe(true);
      expect(await hasher.verifyNothing("correct horse")).toBe(false);
    } finally {
      await hasher.close();
    }
  });

  it("lets a place be reserved ahead of the hash, and given back once", async () => {
    const hasher = createPasswordHasher({ cost: 4, threads: 1, maxQueue: 1, library });
    try {
      hasher.ensureRoom();
      const first = hasher.reserve();
      const second = hasher.reserve();
      expect(() => hasher.reserve()).toThrow(HashQueueFullError);
      expect(() => hasher.ensureRoom()).toThrow(HashQueueFullError);
      await expect(hasher.hash("no room")).rejects.toBeInstanceOf(HashQueueFullError);
      second.release();
      second.release();
      const third = hasher.reserve();
      expect(() => hasher.reserve()).toThrow(HashQueueFullError);
      expect(await first.hash("in a reserved place")).toMatch(/^\$2[ab]\$04\$/);
      first.release(); // used already: gives nothing back twice
      const fourth = hasher.reserve();
      expect(() => hasher.reserve()).toThrow(HashQueueFullError);
      third.release();
      fourth.release();
      expect(await hasher.hash("room again")).toMatch(/^\$2[ab]\$04\$/);
    } finally {
      await hasher.close();
    }
  });

  it("queues 8 per thread by default", async () => {
    const hasher = createPasswordHasher({ cost: 4, threads: 2, library });
    try {
      const results = await Promise.allSettled(Array.from({ length: 19 }, (_, index) => hasher.hash(`password ${index}`)));
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(18);
    } finally {
      await hasher.close();
    }
  });
});
