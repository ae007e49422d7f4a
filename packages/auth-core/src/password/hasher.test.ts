import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { createPasswordHasher } from "./hasher.js";

describe("password hasher", () => {
  const hasher = createPasswordHasher({ cost: 10, threads: 2 });
  afterAll(() => hasher.close());

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
