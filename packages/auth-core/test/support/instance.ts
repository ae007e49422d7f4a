import { type Auth, type CreateAuthOptions, createAuth, type DomainModel } from "../../src/index.js";
import { type ApiClient, apiClient } from "./client.js";
import { TEST_SECRET } from "./domains.js";

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
