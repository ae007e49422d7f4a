import { type Answer, call } from "../../support/http-client.js";

/** Credentials of a test account. */
export interface Account {
  readonly email: string;
  readonly password: string;
}

/** A signed-in account of the blog example. */
export interface SignedIn extends Account {
  readonly id: string;
  readonly token: string;
}

/** The administrator each file creates first. */
export const ADMIN: Account = { email: "admin@example.com", password: "correct horse battery" };

function expectStatus(answer: Answer, status: number, what: string): Record<string, unknown> {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}, not ${status}: ${answer.text.slice(0, 300)}`);
  return answer.body as Record<string, unknown>;
}

/** The `user` object of a body. */
export function userOf(body: unknown): { id: string; email: string; role: string | null } {
  return (body as { user: { id: string; email: string; role: string | null } }).user;
}

/** Creates the first administrator through `POST /api/user/setup`. */
export async function setUp(url: string, account: Account = ADMIN): Promise<SignedIn> {
  const body = expectStatus(await call(url, { path: "/api/user/setup", body: account }), 201, "setup");
  return { ...account, id: userOf(body).id, token: String(body.token) };
}

/** Signs in through `POST /api/user/login`. */
export async function logIn(url: string, account: Account): Promise<SignedIn> {
  const body = expectStatus(await call(url, { path: "/api/user/login", body: account }), 200, `login of ${account.email}`);
  return { ...account, id: userOf(body).id, token: String(body.token) };
}

/** Registers an account and, when `role` is given, has `admin` set it; returns it signed in. */
export async function addUser(url: string, admin: SignedIn, account: Account, role?: string): Promise<SignedIn> {
  const body = expectStatus(await call(url, { path: "/api/user/register", body: account }), 201, `register of ${account.email}`);
  const { id } = userOf(body);
  if (role !== undefined) {
    expectStatus(await call(url, { method: "PATCH", path: `/api/user/${id}`, body: { role }, token: admin.token }), 200, "role change");
  }
  return logIn(url, account);
}
