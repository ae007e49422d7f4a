import { type SignedIn, setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiResult } from "../support/client.js";
import { useInstance } from "../support/instance.js";

/** Every API response is never sniffed and never stored by a cache (docs/security.md#security-headers). */
function expectGuarded(response: ApiResult, expectedStatus: number): void {
  expect(response.status, response.text).toBe(expectedStatus);
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("cache-control")).toBe("no-store");
}

describe.each(BACKENDS)("API response headers on $name", (backend) => {
  const instance = useInstance(backend.create);
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
  });

  it("setup and login, which answer with a token, are neither sniffed nor stored", async () => {
    const setup = await instance.api.post("/api/user/setup", { email: "late@example.com", password: TEST_PASSWORD });
    expectGuarded(setup, 409);
    const login = await instance.api.post("/api/user/login", { email: "admin@example.com", password: TEST_PASSWORD });
    expectGuarded(login, 200);
    expect(login.body.token).toEqual(expect.any(String));
    expectGuarded(await instance.api.get("/api/user/setup"), 200);
  });

  it("register, me and user records, which hold a user, are neither sniffed nor stored", async () => {
    const registered = await instance.api.post("/api/user/register", { email: "reader@example.com", password: TEST_PASSWORD });
    expectGuarded(registered, 201);
    const id: string = registered.body.user.id;
    const options = { token: admin.token };
    expectGuarded(await instance.api.get("/api/user/me", options), 200);
    expectGuarded(await instance.api.get("/api/user", options), 200);
    expectGuarded(await instance.api.get(`/api/user/${id}`, options), 200);
    expectGuarded(await instance.api.patch(`/api/user/${id}`, { name: "Rea" }, options), 200);
    expectGuarded(await instance.api.call("HEAD", `/api/user/${id}`, undefined, options), 200);
    expectGuarded(await instance.api.delete(`/api/user/${id}`, options), 204);
  });

  it("records and errors carry the same headers", async () => {
    const created = await instance.api.post("/api/post", { title: "Hello" }, { token: admin.token });
    expectGuarded(created, 201);
    expectGuarded(await instance.api.get(`/api/post/${created.body.item.id}`), 200);
    expectGuarded(await instance.api.get("/api/user/me"), 401);
    expectGuarded(await instance.api.get("/api/nowhere"), 404);
    expectGuarded(await instance.api.call("PUT", "/api/post"), 405);
    expectGuarded(await instance.api.post("/api/user/login", { email: "admin@example.com", password: "wrong password" }), 401);
  });
});
