// Closed-loop load in the same process, and the alternation of contenders within one run.
import { median } from "./stats.mjs";

/**
 * Runs `operation` from `concurrency` callers, each starting its next call when the previous one
 * finished, for `durationMs`. `operation` resolves to `true` for an expected answer.
 * @returns {Promise<{ ops: number, opsPerSecond: number, failures: number, elapsedMs: number }>}
 */
export async function closedLoop(operation, { concurrency = 10, durationMs = 1000 } = {}) {
  let ops = 0;
  let failures = 0;
  let firstFailure;
  const started = performance.now();
  const end = started + durationMs;
  async function caller() {
    while (performance.now() < end) {
      try {
        if (await operation()) ops++;
        else failures++;
      } catch (error) {
        failures++;
        firstFailure ??= error;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, caller));
  const elapsedMs = performance.now() - started;
  if (failures > 0 && ops === 0) throw new Error(`every call failed${firstFailure ? `: ${firstFailure.message}` : ""}`);
  return { ops, opsPerSecond: ops / (elapsedMs / 1000), failures, elapsedMs };
}

/**
 * Measures several contenders in turns: each round runs every contender once, the order rotating
 * from round to round, so slow phases of a noisy machine hit all of them alike.
 * @param {{ name: string, measure: () => Promise<number> }[]} contenders `measure` resolves to one sample
 * @returns {Promise<Record<string, { samples: number[], median: number }>>}
 */
export async function alternate(contenders, rounds) {
  const samples = Object.fromEntries(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < contenders.length; index++) {
      const contender = contenders[(index + round) % contenders.length];
      samples[contender.name].push(await contender.measure());
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, { samples: values, median: median(values) }]));
}
