import type { TestDatabase } from "@domain-auth/test-support/databases";
import { BLOG_YAML, domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll } from "vitest";
import type { DomainModel } from "../../src/config/index.js";
import { type Auth, type CreateAuthOptions, createAuth } from "../../src/index.js";
import { type ApiClient, apiClient } from "./client.js";

/** An instance for a test, with its client. */
export interface TestInstance {
  readonly auth: Auth;
  readonly api: ApiClient;
}

/** Creates an instance with fast test settings (bcrypt cost 4, two hash threads). */
export async function startInstance(
  domain: DomainModel,
  databaseUrl: string,
  options: Partial<CreateAuthOptions> = {},
): Promise<TestInstance> {
  const auth = await createAuth({ domain, database: databaseUrl, secret: TEST_SECRET, bcryptCost: 4, hashThreads: 2, ...options });
  return { auth, api: apiClient(auth) };
}

/**
 * Starts an instance on a fresh database before the suite's tests and stops both after. The
 * returned object is filled in when the suite starts; read it inside tests and hooks. `options` go
 * to `createAuth` (a `setupToken`, say).
 */
export function useInstance(
  createDatabase: () => TestDatabase | Promise<TestDatabase>,
  yaml: string = BLOG_YAML,
  options: Partial<CreateAuthOptions> = {},
): TestInstance {
  const instance = {} as { auth: Auth; api: ApiClient };
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createDatabase();
    Object.assign(instance, await startInstance(domainOf(yaml), database.url, options));
  });
  afterAll(async () => {
    await instance.auth?.close();
    await database?.drop();
  });
  return instance;
}
