import type { ApiClient } from "./client.js";

/** A user created for a test, signed in. */
export interface TestUser {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly role: string | null;
  readonly token: string;
}

/** The password every test user gets unless told otherwise. */
export const TEST_PASSWORD = "correct horse battery";

function expectStatus(result: { status: number; text: string }, status: number, what: string): void {
  if (result.status !== status) throw new Error(`${what}: expected ${status}, got ${result.status} ${result.text}`);
}

/** Runs setup: the first user, with the setup role, signed in. */
export async function setupAdmin(api: ApiClient, email = "admin@example.com"): Promise<TestUser> {
  const result = await api.post("/api/user/setup", { email, password: TEST_PASSWORD });
  expectStatus(result, 201, "setup");
  const { user, token } = result.body;
  return { id: user.id, email: user.email, password: TEST_PASSWORD, role: user.role, token };
}

/** Signs a user in again (e.g. after a role change made the old token stale). */
export async function signIn(api: ApiClient, email: string, password = TEST_PASSWORD, segment = "user"): Promise<string> {
  const result = await api.post(`/api/${segment}/login`, { email, password });
  expectStatus(result, 200, `login ${email}`);
  return result.body.token;
}

/**
 * Registers a user and, when `role` differs from the default, has `admin` give it that role
 * through `PATCH /api/<segment>/<id>`; returns the user signed in with its final role.
 */
export async function createUserWithRole(
  api: ApiClient,
  admin: TestUser,
  options: { email: string; role?: string | null; password?: string; segment?: string },
): Promise<TestUser> {
  const segment = options.segment ?? "user";
  const password = options.password ?? TEST_PASSWORD;
  const registered = await api.post(`/api/${segment}/register`, { email: options.email, password });
  expectStatus(registered, 201, `register ${options.email}`);
  let user = registered.body.user;
  if (options.role !== undefined && options.role !== user.role) {
    const changed = await api.patch(`/api/${segment}/${user.id}`, { role: options.role }, { token: admin.token });
    expectStatus(changed, 200, `give ${options.email} the role ${options.role}`);
    user = changed.body.item;
  }
  const token = await signIn(api, user.email, password, segment);
  return { id: user.id, email: user.email, password, role: user.role, token };
}
