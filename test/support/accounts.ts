import { call } from "./http-client.js";

/** The password every test account gets unless told otherwise. */
export const TEST_PASSWORD = "correct horse battery";

/** Credentials and profile fields of a test account. */
export interface Account {
  readonly email: string;
  readonly password: string;
  readonly name?: string;
}

/** An account to create or sign in: the password is {@link TEST_PASSWORD} unless given. */
export interface AccountInput {
  readonly email: string;
  readonly password?: string;
  readonly name?: string;
}

/** An account created for a test, signed in: the credentials as given, the rest as the server answered. */
export interface SignedIn extends Account {
  readonly id: string;
  readonly role: string | null;
  readonly token: string;
  /** The refresh token of the session the sign-in started. */
  readonly refreshToken: string;
}

/** The administrator each suite sets up first. */
export const ADMIN: Account = { email: "admin@example.com", password: TEST_PASSWORD };

/** An answer, as far as the account helpers read it. */
export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly body: unknown;
}

/** What the account helpers need of a client: one request with an optional bearer token. The in-process `ApiClient` is one. */
export interface Transport {
  call(method: string, path: string, body?: unknown, options?: { token?: string }): Promise<Reply>;
}

/** Where the account helpers send their requests: a client in process, or the URL of a running server. */
export type Target = Transport | string;

function transportOf(target: Target): Transport {
  if (typeof target !== "string") return target;
  return { call: (method, path, body, options) => call(target, { method, path, body, token: options?.token }) };
}

async function expectStatus(reply: Promise<Reply>, expected: number, what: string): Promise<Record<string, unknown>> {
  const { status, text, body } = await reply;
  if (status !== expected) throw new Error(`${what} answered ${status}, not ${expected}: ${text.slice(0, 300)}`);
  return body as Record<string, unknown>;
}

/** The `user` object of a body. */
export function userOf(body: unknown): { id: string; email: string; role: string | null } {
  return (body as { user: { id: string; email: string; role: string | null } }).user;
}

/** The credentials (and name) of an account, the password filled in. */
function credentialsOf({ email, password = TEST_PASSWORD, name }: AccountInput): Account {
  return name === undefined ? { email, password } : { email, password, name };
}

function signedIn(account: Account, body: Record<string, unknown>): SignedIn {
  const user = userOf(body);
  return { ...account, id: user.id, role: user.role, token: String(body.token), refreshToken: String(body.refreshToken) };
}

/** Creates the first administrator through `POST /api/user/setup`. */
export async function setUpAdmin(target: Target, account: AccountInput = ADMIN): Promise<SignedIn> {
  const credentials = credentialsOf(account);
  return signedIn(credentials, await expectStatus(transportOf(target).call("POST", "/api/user/setup", credentials), 201, "setup"));
}

/** Signs in through `POST /api/user/login`. */
export async function signIn(target: Target, account: AccountInput): Promise<SignedIn> {
  const credentials = credentialsOf(account);
  const { email, password } = credentials;
  const body = await expectStatus(transportOf(target).call("POST", "/api/user/login", { email, password }), 200, `login of ${email}`);
  return signedIn(credentials, body);
}

async function register(target: Target, account: AccountInput): Promise<{ id: string; role: string | null }> {
  const registered = transportOf(target).call("POST", "/api/user/register", credentialsOf(account));
  return userOf(await expectStatus(registered, 201, `register of ${account.email}`));
}

/** Registers an account through `POST /api/user/register` and signs it in. */
export async function signUp(target: Target, account: AccountInput): Promise<SignedIn> {
  await register(target, account);
  return signIn(target, account);
}

/**
 * Registers an account and, when `role` differs from the default role, has `admin` give it that role
 * through `PATCH /api/user/<id>`; returns it signed in with its final role.
 */
export async function addUser(
  target: Target,
  admin: SignedIn,
  account: AccountInput & { readonly role?: string | null },
): Promise<SignedIn> {
  const { role, ...credentials } = account;
  const user = await register(target, credentials);
  if (role !== undefined && role !== user.role) {
    const changed = transportOf(target).call("PATCH", `/api/user/${user.id}`, { role }, { token: admin.token });
    await expectStatus(changed, 200, `giving ${account.email} the role ${role}`);
  }
  return signIn(target, credentials);
}
