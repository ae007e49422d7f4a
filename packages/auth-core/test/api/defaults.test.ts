import { setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { describe, expect, it } from "vitest";
import { ensureAdministrator } from "../../src/admin.js";
import { useInstance } from "../support/instance.js";

/** A user entity with declared defaults, a date-time among them. */
const CLUB_YAML = `name: club
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      memberSince: { type: datetime, default: "2030-01-01T02:00:00+02:00" }
      plan: { type: string, default: free }
      role: { type: string, default: Member }
auth:
  type: jwt
  roles: [Admin, Member]
`;

describe.each(BACKENDS)("defaults of the auth entity on $name", (backend) => {
  const instance = useInstance(backend.create, CLUB_YAML);
  const expected = { memberSince: "2030-01-01T00:00:00.000Z", plan: "free" };

  it("fills them the same way on every path that creates a user: date-times as UTC instants", async () => {
    const admin = await setUpAdmin(instance.api);
    expect((await instance.api.get("/api/user/me", { token: admin.token })).body.user).toMatchObject(expected);
    const registered = await instance.api.post("/api/user/register", { email: "reader@example.com", password: TEST_PASSWORD });
    expect(registered.body.user).toMatchObject(expected);
    const made = await instance.api.post("/api/user", { email: "made@example.com", password: TEST_PASSWORD }, { token: admin.token });
    expect(made.body.item).toMatchObject(expected);
    const restored = await ensureAdministrator(instance.auth, { email: "rescue@example.com", password: TEST_PASSWORD });
    expect(restored.user).toMatchObject(expected);
  });
});
