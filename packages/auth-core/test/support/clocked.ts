import type { TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll } from "vitest";
import type { CreateAuthOptions } from "../../src/index.js";
import { startInstance, type TestInstance } from "./instance.js";

/** Two instances on one fresh database, sharing a clock that tests move forward. */
export interface ClockedPair {
  readonly first: TestInstance;
  readonly second: TestInstance;
  /** Moves the shared clock by this many seconds. */
  advance(seconds: number): void;
}

/**
 * Starts two instances on one fresh database before the suite and stops them after: what one
 * revokes, the other must refuse at once. Their clock starts at the real time and moves only
 * when a test calls `advance`.
 */
export function useClockedPair(
  createDatabase: () => TestDatabase | Promise<TestDatabase>,
  options: Partial<CreateAuthOptions> = {},
  yaml: string = BLOG_YAML,
): ClockedPair {
  let clock = Date.now();
  const now = () => clock;
  const advance = (seconds: number): void => {
    clock += seconds * 1000;
  };
  const pair = { advance } as { advance: typeof advance; first: TestInstance; second: TestInstance };
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createDatabase();
    const domain = domainOf(yaml);
    pair.first = await startInstance(domain, database.url, { now, ...options });
    pair.second = await startInstance(domain, database.url, { now, ...options });
  });
  afterAll(async () => {
    await pair.first?.auth.close();
    await pair.second?.auth.close();
    await database?.drop();
  });
  return pair;
}
