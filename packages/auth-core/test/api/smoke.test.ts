import { BACKENDS } from "@domain-auth/test-support/databases";
import { describe, expect, it } from "vitest";
import { useInstance } from "../support/instance.js";

describe.each(BACKENDS)("smoke on $name", (backend) => {
  const instance = useInstance(backend.create);

  it("runs setup, login, me, register and posts", async () => {
    const { api } = instance;
    expect((await api.get("/api/user/setup")).body).toEqual({ setupRequired: true });
    const setup = await api.post("/api/user/setup", { email: "Admin@Example.com ", password: "correct horse" });
    expect(setup.status, setup.text).toBe(201);
    expect(setup.body.user.role).toBe("Admin");
    expect(setup.body.user.email).toBe("admin@example.com");
    expect(setup.text).not.toMatch(/password/i);
    const again = await api.post("/api/user/setup", { email: "x@example.com", password: "correct horse" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("SETUP_COMPLETE");
    const login = await api.post("/api/user/login", { email: "admin@example.com", password: "correct horse" });
    expect(login.status, login.text).toBe(200);
    const me = await api.get("/api/user/me", { token: login.body.token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("admin@example.com");
    const reg = await api.post("/api/user/register", { email: "r@example.com", password: "a reader of the blog", role: "Admin" });
    expect(reg.status, reg.text).toBe(201);
    expect(reg.body.user.role).toBe("Reader");
    const post = await api.post("/api/post", { title: "Hello" }, { token: login.body.token });
    expect(post.status, post.text).toBe(201);
    expect(post.body.item.author).toBe(setup.body.user.id);
    expect(post.body.item.published).toBe(false);
    const list = await api.get("/api/post");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
  });
});
