import { expect } from "vitest";
import type { ApiClient } from "./client.js";

/** Default password of test users. */
export const PASSWORD = "correct horse battery";

/** Runs setup and returns the administrator's token and id. */
export async function setUpAdmin(api: ApiClient, email = "admin@example.com"): Promise<{ token: string; id: string }> {
  const response = await api.post("/api/user/setup", { email, password: PASSWORD });
  expect(response.status, response.text).toBe(201);
  return { token: response.body.token, id: response.body.user.id };
}

/** Registers a user and signs them in; with `role`, an administrator's token sets it first. */
export async function signUp(
  api: ApiClient,
  email: string,
  options: { role?: string; adminToken?: string } = {},
): Promise<{ token: string; id: string }> {
  const registered = await api.post("/api/user/register", { email, password: PASSWORD });
  expect(registered.status, registered.text).toBe(201);
  const id: string = registered.body.user.id;
  if (options.role) {
    const promoted = await api.patch(`/api/user/${id}`, { role: options.role }, options.adminToken ? { token: options.adminToken } : {});
    expect(promoted.status, promoted.text).toBe(200);
  }
  const login = await api.post("/api/user/login", { email, password: PASSWORD });
  expect(login.status, login.text).toBe(200);
  return { token: login.body.token, id };
}
