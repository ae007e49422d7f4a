import { addUser, type SignedIn, setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { BLOG_YAML } from "@domain-auth/test-support/domains";
import { findLeaks } from "@domain-auth/test-support/leaks";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestInstance, useInstance } from "../support/instance.js";

/** Who calls: for records, the Editor (owner) owns the record and the Editor (not owner) does not. */
type Persona = "anonymous" | "reader" | "editorOwner" | "editorOther" | "admin";
const PERSONAS: readonly Persona[] = ["anonymous", "reader", "editorOwner", "editorOther", "admin"];

/** The blog example's Post permissions: create [Editor, Admin], read ["*"], update ["@Owner", Admin], delete [Admin]. */
const POST_MATRIX = {
  list: { anonymous: 200, reader: 200, editorOwner: 200, editorOther: 200, admin: 200 },
  read: { anonymous: 200, reader: 200, editorOwner: 200, editorOther: 200, admin: 200 },
  create: { anonymous: 401, reader: 403, editorOwner: 201, editorOther: 201, admin: 201 },
  update: { anonymous: 401, reader: 403, editorOwner: 200, editorOther: 403, admin: 200 },
  delete: { anonymous: 401, reader: 403, editorOwner: 403, editorOther: 403, admin: 204 },
} as const satisfies Record<string, Record<Persona, number>>;

/**
 * The blog example's User permissions: read [Admin, "@Owner"], update [Admin, "@Owner"], delete [Admin], and
 * create guarded to [Admin]. For User, the Editor (owner) acts on its own record, the Editor (not owner) on
 * another user's; anonymous, Reader and Admin act on another user's.
 */
const USER_MATRIX = {
  read: { anonymous: 401, reader: 403, editorOwner: 200, editorOther: 403, admin: 200 },
  create: { anonymous: 401, reader: 403, editorOwner: 403, editorOther: 403, admin: 201 },
  update: { anonymous: 401, reader: 403, editorOwner: 200, editorOther: 403, admin: 200 },
  delete: { anonymous: 401, reader: 403, editorOwner: 403, editorOther: 403, admin: 204 },
} as const satisfies Record<string, Record<Persona, number>>;

function cases<M extends Record<string, Record<Persona, number>>>(matrix: M): [keyof M & string, Persona, number][] {
  return Object.entries(matrix).flatMap(([operation, row]) =>
    PERSONAS.map((persona): [keyof M & string, Persona, number] => [operation, persona, row[persona]]),
  );
}

describe.each(BACKENDS)("entity permissions of the blog example on $name", (backend) => {
  const instance = useInstance(backend.create, BLOG_YAML);
  let admin: SignedIn;
  let reader: SignedIn;
  let editor: SignedIn;
  let otherEditor: SignedIn;
  let counter = 0;

  const api = () => instance.api;
  const tokenOf = (persona: Persona): string | undefined =>
    ({ anonymous: undefined, reader: reader.token, editorOwner: editor.token, editorOther: otherEditor.token, admin: admin.token })[
      persona
    ];
  const as = (persona: Persona) => {
    const token = tokenOf(persona);
    return token ? { token } : {};
  };
  const editorsPost = async (): Promise<string> => {
    const created = await api().post("/api/post", { title: `Post ${++counter}` }, { token: editor.token });
    expect(created.status, created.text).toBe(201);
    return created.body.item.id;
  };
  const someUser = async (): Promise<string> => {
    const registered = await api().post("/api/user/register", { email: `someone${++counter}@example.com`, password: TEST_PASSWORD });
    expect(registered.status, registered.text).toBe(201);
    return registered.body.user.id;
  };

  beforeAll(async () => {
    admin = await setUpAdmin(instance.api);
    reader = await addUser(instance.api, admin, { email: "reader@example.com" });
    editor = await addUser(instance.api, admin, { email: "editor@example.com", role: "Editor" });
    otherEditor = await addUser(instance.api, admin, { email: "editor2@example.com", role: "Editor" });
    expect(reader.role).toBe("Reader");
  });

  describe("Post", () => {
    it.each(cases(POST_MATRIX))("%s as %s → %i", async (operation, persona, expected) => {
      const options = as(persona);
      let result: Awaited<ReturnType<TestInstance["api"]["get"]>>;
      let id: string | undefined;
      if (operation === "list") result = await api().get("/api/post", options);
      else if (operation === "create") result = await api().post("/api/post", { title: "New" }, options);
      else {
        id = await editorsPost();
        if (operation === "read") result = await api().get(`/api/post/${id}`, options);
        else if (operation === "update") result = await api().patch(`/api/post/${id}`, { title: "Changed" }, options);
        else result = await api().delete(`/api/post/${id}`, options);
      }
      expect(result.status, result.text).toBe(expected);
      if (expected === 401) {
        expect(result.body.code).toBe("UNAUTHENTICATED");
        expect(result.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
      if (expected === 403) expect(result.body.code).toBe("FORBIDDEN");
      if (id && expected >= 400) {
        const after = await api().get(`/api/post/${id}`);
        expect(after.status).toBe(200);
        expect(after.body.item.title).not.toBe("Changed");
      }
      if (operation === "create" && expected === 201) {
        const creator = persona === "admin" ? admin : persona === "editorOwner" ? editor : otherEditor;
        expect(result.body.item.author).toBe(creator.id);
      }
    });

    it("lets anonymous callers list posts because read is [*]", async () => {
      await editorsPost();
      const list = await api().get("/api/post");
      expect(list.status).toBe(200);
      expect(list.body.total).toBeGreaterThan(0);
      expect(list.body.items.length).toBe(Math.min(20, list.body.total));
    });

    it("refuses a bad token with 401 even on a route open to *", async () => {
      for (const token of ["garbage", `${editor.token}x`, ""]) {
        const result = await api().get("/api/post", { headers: { authorization: `Bearer ${token}` } });
        expect(result.status).toBe(401);
        expect(result.body.code).toBe("UNAUTHENTICATED");
      }
      const id = await editorsPost();
      const one = await api().get(`/api/post/${id}`, { token: "not.a.token" });
      expect(one.status).toBe(401);
    });

    it("does not let an Editor hand a post to someone else by writing author (nothing written)", async () => {
      const id = await editorsPost();
      const handed = await api().patch(`/api/post/${id}`, { title: "Mine no more", author: otherEditor.id }, { token: editor.token });
      expect(handed.status, handed.text).toBe(403);
      expect(handed.body.code).toBe("FORBIDDEN");
      const after = await api().get(`/api/post/${id}`);
      expect(after.body.item.author).toBe(editor.id);
      expect(after.body.item.title).not.toBe("Mine no more");
      const created = await api().post("/api/post", { title: "For you", author: otherEditor.id }, { token: editor.token });
      expect(created.status).toBe(403);
    });

    it("lets the Admin give a post to another user", async () => {
      const id = await editorsPost();
      const handed = await api().patch(`/api/post/${id}`, { author: otherEditor.id }, { token: admin.token });
      expect(handed.status, handed.text).toBe(200);
      expect(handed.body.item.author).toBe(otherEditor.id);
      const byNewOwner = await api().patch(`/api/post/${id}`, { title: "Now mine" }, { token: otherEditor.token });
      expect(byNewOwner.status).toBe(200);
      const byOldOwner = await api().patch(`/api/post/${id}`, { title: "Still mine?" }, { token: editor.token });
      expect(byOldOwner.status).toBe(403);
    });
  });

  describe("User", () => {
    it.each(cases(USER_MATRIX))("%s as %s → %i", async (operation, persona, expected) => {
      const options = as(persona);
      let result: Awaited<ReturnType<TestInstance["api"]["get"]>>;
      if (operation === "create") {
        result = await api().post("/api/user", { email: `created${++counter}@example.com`, password: TEST_PASSWORD }, options);
      } else {
        const id = persona === "editorOwner" ? editor.id : await someUser();
        if (operation === "read") result = await api().get(`/api/user/${id}`, options);
        else if (operation === "update") result = await api().patch(`/api/user/${id}`, { name: `Name ${counter}` }, options);
        else result = await api().delete(`/api/user/${id}`, options);
        const after = await api().get(`/api/user/${id}`, { token: admin.token });
        expect(after.status).toBe(operation === "delete" && expected === 204 ? 404 : 200);
        if (operation === "update") expect(after.body.item.name).toBe(expected === 200 ? `Name ${counter}` : null);
      }
      expect(result.status, result.text).toBe(expected);
      if (expected === 401) expect(result.body.code).toBe("UNAUTHENTICATED");
      if (expected === 403) expect(result.body.code).toBe("FORBIDDEN");
      expect(findLeaks(result)).toEqual([]);
    });

    it("lists only the caller's own record to a Reader or an Editor, and every user to the Admin", async () => {
      for (const user of [reader, editor]) {
        const list = await api().get("/api/user", { token: user.token });
        expect(list.status).toBe(200);
        expect(list.body.total).toBe(1);
        expect(list.body.items.map((item: { id: string }) => item.id)).toEqual([user.id]);
      }
      const all = await api().get("/api/user?limit=100", { token: admin.token });
      expect(all.status).toBe(200);
      expect(all.body.total).toBeGreaterThanOrEqual(4);
      expect(all.body.items.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([admin.id, reader.id, editor.id]));
      expect((await api().get("/api/user")).status).toBe(401);
    });

    it("lets a Reader read and change its own record", async () => {
      expect((await api().get(`/api/user/${reader.id}`, { token: reader.token })).status).toBe(200);
      const renamed = await api().patch(`/api/user/${reader.id}`, { name: "Rita" }, { token: reader.token });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body.item.name).toBe("Rita");
    });

    it("does not let a Reader promote itself to Admin (403, nothing written)", async () => {
      const promoted = await api().patch(`/api/user/${reader.id}`, { role: "Admin", name: "Boss" }, { token: reader.token });
      expect(promoted.status, promoted.text).toBe(403);
      expect(promoted.body.code).toBe("FORBIDDEN");
      const after = await api().get(`/api/user/${reader.id}`, { token: admin.token });
      expect(after.body.item.role).toBe("Reader");
      expect(after.body.item.name).not.toBe("Boss");
      const me = await api().get("/api/user/me", { token: reader.token });
      expect(me.status).toBe(200);
      expect(me.body.user.role).toBe("Reader");
      expect(
        (await api().post("/api/user", { email: "boss@example.com", password: TEST_PASSWORD, role: "Admin" }, as("reader"))).status,
      ).toBe(403);
    });

    it("does not let an Editor change another user's role, email or password", async () => {
      const id = await someUser();
      for (const body of [{ role: "Editor" }, { email: "taken-over@example.com" }, { password: "new password 1" }]) {
        expect((await api().patch(`/api/user/${id}`, body, { token: editor.token })).status).toBe(403);
      }
    });
  });
});
