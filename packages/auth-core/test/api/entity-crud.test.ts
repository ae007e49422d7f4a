import { addUser, type SignedIn, setUpAdmin } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { findLeaks } from "@domain-auth/test-support/leaks";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../support/client.js";
import { useInstance } from "../support/instance.js";

const SHOP_YAML = `name: shop
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Member }
  Article:
    owner: author
    fields:
      title: { type: string, required: true, maxLength: 5 }
      slug: { type: string, unique: true }
      body: text
      views: { type: integer, default: 0, min: 0, max: 1000 }
      rating: { type: number, min: 0, max: 5 }
      published: { type: boolean, default: false }
      publishedAt: datetime
      author: { type: ref, to: User }
      category: { type: ref, to: Category }
    permissions:
      create: ["@Authenticated"]
      read: ["*"]
      update: ["@Owner", Admin]
      delete: ["@Owner", Admin]
  Category:
    fields:
      name: { type: string, required: true, unique: true }
      constructor: { type: string, default: plain }
      short__code: { type: string, unique: true }
      since: { type: datetime, default: "2030-01-01T02:00:00+02:00" }
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
  Note:
    fields:
      text: string
    permissions:
      create: ["@Authenticated"]
      read: ["@Owner"]
      update: ["@Owner"]
      delete: ["@Owner"]
auth:
  type: jwt
  roles: [Admin, Member]
`;

const OPEN_YAML = `name: open
entities:
  Account:
    fields:
      email: string
      password: string
      nickname: string
  Memo:
    fields:
      text: { type: string, required: true }
    permissions:
      read: [Admin]
      create: []
      update: ["@Owner"]
auth:
  type: none
  roles: [Admin]
`;

const ids = (items: { id: string }[]) => items.map((item) => item.id);
const byCreatedAtThenId = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;
const codesOf = (issues: { path: (string | number)[] }[]) => issues.map((issue) => issue.path.join("."));

describe.each(BACKENDS)("entity CRUD on $name", (backend) => {
  const instance = useInstance(backend.create, SHOP_YAML);
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let api: ApiClient;

  beforeAll(async () => {
    api = instance.api;
    admin = await setUpAdmin(api);
    alice = await addUser(api, admin, { email: "alice@example.com" });
    bob = await addUser(api, admin, { email: "bob@example.com" });
    expect(alice.role).toBe("Member");
  });

  describe("list", () => {
    let created: { id: string; createdAt: string }[];
    beforeAll(async () => {
      created = [];
      for (let index = 0; index < 25; index++) {
        const result = await api.post("/api/category", { name: `Category ${index}` }, { token: admin.token });
        expect(result.status, result.text).toBe(201);
        created.push(result.body.item);
      }
    });

    it("pages with limit (default 20) and offset, ordered by createdAt then id, with the total", async () => {
      const first = await api.get("/api/category");
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual(["items", "nextCursor", "total"]);
      expect(first.body.total).toBe(25);
      expect(first.body.items).toHaveLength(20);
      const all = await api.get("/api/category?limit=100");
      expect(all.body.items).toHaveLength(25);
      expect(ids(all.body.items)).toEqual(ids([...all.body.items].sort(byCreatedAtThenId)));
      expect(new Set(ids(all.body.items))).toEqual(new Set(ids(created)));
      const pages: { id: string }[] = [];
      for (let offset = 0; offset < 25; offset += 7) {
        const page = await api.get(`/api/category?limit=7&offset=${offset}`);
        expect(page.status).toBe(200);
        expect(page.body.total).toBe(25);
        pages.push(...page.body.items);
      }
      expect(ids(pages)).toEqual(ids(all.body.items));
      const past = await api.get("/api/category?offset=25");
      expect(past.body).toEqual({ items: [], total: 25, nextCursor: null });
      expect((await api.get("/api/category?limit=1&offset=24")).body.items).toHaveLength(1);
    });

    it.each([
      "limit=0",
      "limit=101",
      "limit=-1",
      "limit=abc",
      "limit=1.5",
      "limit=",
      "limit=1e1",
      "offset=-1",
      "offset=x",
      "offset=99999999999999999999",
    ])("answers 400 INVALID_QUERY for %s", async (query) => {
      const result = await api.get(`/api/category?${query}`);
      expect(result.status).toBe(400);
      expect(result.body.code).toBe("INVALID_QUERY");
      expect(result.body.issues.length).toBeGreaterThan(0);
    });

    it("accepts the bounds of limit", async () => {
      expect((await api.get("/api/category?limit=1")).body.items).toHaveLength(1);
      expect((await api.get("/api/category?limit=100")).status).toBe(200);
    });
  });

  describe("create and read", () => {
    it("fills defaults for absent keys, answers 201 { item } and sets the owner to the caller", async () => {
      const result = await api.post("/api/article", { title: "Hi" }, { token: alice.token });
      expect(result.status, result.text).toBe(201);
      expect(Object.keys(result.body)).toEqual(["item"]);
      const { item } = result.body;
      expect(item).toMatchObject({
        title: "Hi",
        slug: null,
        body: null,
        views: 0,
        rating: null,
        published: false,
        publishedAt: null,
        author: alice.id,
        category: null,
      });
      expect(typeof item.id).toBe("string");
      expect(item.createdAt).toBe(item.updatedAt);
      expect(new Date(item.createdAt).toISOString()).toBe(item.createdAt);
      const read = await api.get(`/api/article/${item.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ item });
    });

    it("keeps given values of every type and normalizes date-times to UTC", async () => {
      const category = (await api.post("/api/category", { name: "Typed" }, { token: admin.token })).body.item;
      const result = await api.post(
        "/api/article",
        {
          title: "All",
          body: "long text",
          views: 1000,
          rating: 4.5,
          published: true,
          publishedAt: "2024-05-01T12:00:00+02:00",
          category: category.id,
        },
        { token: alice.token },
      );
      expect(result.status, result.text).toBe(201);
      expect(result.body.item).toMatchObject({
        views: 1000,
        rating: 4.5,
        published: true,
        publishedAt: "2024-05-01T10:00:00.000Z",
        category: category.id,
      });
      const read = await api.get(`/api/article/${result.body.item.id}`);
      expect(read.body.item).toEqual(result.body.item);
    });

    it("fills defaults, also of a field named like an Object.prototype member, date-times in UTC", async () => {
      const result = await api.post("/api/category", { name: "Prototype" }, { token: admin.token });
      expect(result.status, result.text).toBe(201);
      expect(result.body.item.constructor).toBe("plain");
      expect(result.body.item.since).toBe("2030-01-01T00:00:00.000Z");
    });

    it("reports every problem of a body at once, with its path", async () => {
      const result = await api.post(
        "/api/article",
        { views: 1.5, rating: 6, published: "yes", publishedAt: "2024-02-30T00:00:00Z", body: 3, slug: ["a"] },
        { token: alice.token },
      );
      expect(result.status).toBe(400);
      expect(result.body.code).toBe("INVALID_BODY");
      expect(codesOf(result.body.issues).sort()).toEqual(["body", "published", "publishedAt", "rating", "slug", "title", "views"]);
      for (const body of [{ title: "x", views: -1 }, { title: "x", views: "3" }, { title: "x", rating: -0.1 }, { title: null }]) {
        expect((await api.post("/api/article", body, { token: alice.token })).status).toBe(400);
      }
    });

    it("counts maxLength in code points", async () => {
      expect((await api.post("/api/article", { title: "😀😀😀😀😀" }, { token: alice.token })).status).toBe(201);
      expect((await api.post("/api/article", { title: "é".normalize("NFD").repeat(3) }, { token: alice.token })).status).toBe(400);
      const long = await api.post("/api/article", { title: "😀😀😀😀😀😀" }, { token: alice.token });
      expect(long.status).toBe(400);
      expect(codesOf(long.body.issues)).toEqual(["title"]);
    });

    it("refuses strings that a backend could not store as sent", async () => {
      for (const title of ["a\u0000b", "a\ud800b"]) {
        const result = await api.post("/api/article", { title }, { token: alice.token });
        expect(result.status).toBe(400);
        expect(codesOf(result.body.issues)).toEqual(["title"]);
      }
    });

    it("answers 404 NOT_FOUND for unknown ids", async () => {
      for (const id of ["00000000-0000-4000-8000-000000000000", "nope", "%00", "x".repeat(300)]) {
        const result = await api.get(`/api/article/${id}`);
        expect(result.status).toBe(404);
        expect(result.body.code).toBe("NOT_FOUND");
      }
    });

    it("rejects undeclared keys, __proto__ and constructor with an issue, and ignores id, createdAt and updatedAt", async () => {
      const undeclared = await api.post("/api/article", { title: "x", colour: "red", passwordHash: "h" }, { token: alice.token });
      expect(undeclared.status).toBe(400);
      expect(codesOf(undeclared.body.issues).sort()).toEqual(["colour", "passwordHash"]);
      for (const raw of ['{"title":"x","__proto__":{"admin":true}}', '{"title":"x","constructor":{"prototype":{}}}']) {
        const result = await api.call("POST", "/api/article", undefined, {
          token: alice.token,
          raw,
          headers: { "content-type": "application/json" },
        });
        expect(result.status).toBe(400);
        expect(result.body.issues.length).toBeGreaterThan(0);
      }
      const stamped = await api.post(
        "/api/article",
        { title: "x", id: "mine", createdAt: "2000-01-01T00:00:00.000Z", updatedAt: "2000-01-01T00:00:00.000Z" },
        { token: alice.token },
      );
      expect(stamped.status, stamped.text).toBe(201);
      expect(stamped.body.item.id).not.toBe("mine");
      expect(stamped.body.item.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
    });

    it("refuses a ref to a record that does not exist (400), and accepts null", async () => {
      const dangling = await api.post(
        "/api/article",
        { title: "x", category: "00000000-0000-4000-8000-000000000000" },
        { token: alice.token },
      );
      expect(dangling.status).toBe(400);
      expect(codesOf(dangling.body.issues)).toEqual(["category"]);
      expect((await api.post("/api/article", { title: "x", category: "" }, { token: alice.token })).status).toBe(400);
      expect((await api.post("/api/article", { title: "x", category: null }, { token: alice.token })).status).toBe(201);
    });

    it("answers 409 CONFLICT on a unique clash, compares exact values, and never lets nulls clash", async () => {
      expect((await api.post("/api/article", { title: "a", slug: "same" }, { token: alice.token })).status).toBe(201);
      const clash = await api.post("/api/article", { title: "b", slug: "same" }, { token: bob.token });
      expect(clash.status).toBe(409);
      expect(clash.body.code).toBe("CONFLICT");
      expect((await api.post("/api/article", { title: "c", slug: "Same" }, { token: bob.token })).status).toBe(201);
      expect((await api.post("/api/article", { title: "d", slug: null }, { token: bob.token })).status).toBe(201);
      expect((await api.post("/api/article", { title: "e", slug: null }, { token: bob.token })).status).toBe(201);
      expect((await api.post("/api/article", { title: "f" }, { token: bob.token })).status).toBe(201);
    });

    it("does not let a non-setup-role caller name the owner, and lets the setup role do so", async () => {
      const named = await api.post("/api/article", { title: "x", author: bob.id }, { token: alice.token });
      expect(named.status).toBe(403);
      expect(named.body.code).toBe("FORBIDDEN");
      const own = await api.post("/api/article", { title: "x", author: alice.id }, { token: alice.token });
      expect(own.status).toBe(403);
      const byAdmin = await api.post("/api/article", { title: "x", author: bob.id }, { token: admin.token });
      expect(byAdmin.status, byAdmin.text).toBe(201);
      expect(byAdmin.body.item.author).toBe(bob.id);
      const mine = await api.post("/api/article", { title: "x" }, { token: admin.token });
      expect(mine.body.item.author).toBe(admin.id);
    });
  });

  describe("update and delete", () => {
    const article = async (token = alice.token, body: Record<string, unknown> = {}) => {
      const result = await api.post("/api/article", { title: "Orig", body: "text", rating: 3, ...body }, { token });
      expect(result.status, result.text).toBe(201);
      return result.body.item;
    };

    it("changes only the keys sent and moves updatedAt", async () => {
      const before = await article();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const result = await api.patch(`/api/article/${before.id}`, { title: "New" }, { token: alice.token });
      expect(result.status, result.text).toBe(200);
      expect(Object.keys(result.body)).toEqual(["item"]);
      expect(result.body.item).toEqual({ ...before, title: "New", updatedAt: result.body.item.updatedAt });
      expect(result.body.item.updatedAt > before.updatedAt).toBe(true);
      expect((await api.get(`/api/article/${before.id}`)).body.item).toEqual(result.body.item);
    });

    it("clears an optional field with null and refuses null for a required one", async () => {
      const before = await article();
      const cleared = await api.patch(`/api/article/${before.id}`, { body: null, rating: null }, { token: alice.token });
      expect(cleared.status).toBe(200);
      expect(cleared.body.item).toMatchObject({ body: null, rating: null, title: "Orig" });
      const required = await api.patch(`/api/article/${before.id}`, { title: null }, { token: alice.token });
      expect(required.status).toBe(400);
      expect(codesOf(required.body.issues)).toEqual(["title"]);
      expect((await api.get(`/api/article/${before.id}`)).body.item.title).toBe("Orig");
    });

    it("does not fill defaults on update", async () => {
      const before = await article(alice.token, { views: 7 });
      const result = await api.patch(`/api/article/${before.id}`, { title: "Y" }, { token: alice.token });
      expect(result.body.item.views).toBe(7);
    });

    it("rejects undeclared keys (400 with an issue) and ignores id, createdAt and updatedAt", async () => {
      const before = await article();
      const undeclared = await api.patch(`/api/article/${before.id}`, { title: "Z", extra: 1 }, { token: alice.token });
      expect(undeclared.status).toBe(400);
      expect(codesOf(undeclared.body.issues)).toEqual(["extra"]);
      const stamped = await api.patch(
        `/api/article/${before.id}`,
        { id: "other", createdAt: "2000-01-01T00:00:00.000Z", updatedAt: "2000-01-01T00:00:00.000Z" },
        { token: alice.token },
      );
      expect(stamped.status, stamped.text).toBe(200);
      expect(stamped.body.item.id).toBe(before.id);
      expect(stamped.body.item.createdAt).toBe(before.createdAt);
      expect(stamped.body.item.updatedAt).not.toBe("2000-01-01T00:00:00.000Z");
      expect(stamped.body.item.title).toBe("Orig");
    });

    it("checks unique values and refs on update too", async () => {
      await article(alice.token, { slug: "taken-on-update" });
      const before = await article();
      const clash = await api.patch(`/api/article/${before.id}`, { slug: "taken-on-update" }, { token: alice.token });
      expect(clash.status).toBe(409);
      expect(clash.body.code).toBe("CONFLICT");
      const dangling = await api.patch(`/api/article/${before.id}`, { category: "missing" }, { token: alice.token });
      expect(dangling.status).toBe(400);
      expect((await api.get(`/api/article/${before.id}`)).body.item.slug).toBeNull();
    });

    it("answers 404 for an unknown id, after the body has been validated", async () => {
      const unknown = "00000000-0000-4000-8000-000000000000";
      expect((await api.patch(`/api/article/${unknown}`, { title: "ok" }, { token: admin.token })).status).toBe(404);
      expect((await api.patch(`/api/article/${unknown}`, { title: 5 }, { token: admin.token })).status).toBe(400);
      expect((await api.delete(`/api/article/${unknown}`, { token: admin.token })).status).toBe(404);
      expect((await api.patch(`/api/article/${unknown}`, { author: bob.id }, { token: alice.token })).status).toBe(404);
      expect((await api.delete(`/api/article/${unknown}`, { token: alice.token })).status).toBe(404);
      expect((await api.patch(`/api/note/${unknown}`, { text: "x" }, { token: alice.token })).status).toBe(404);
    });

    it("deletes with 204 and no body; the record is then gone", async () => {
      const before = await article();
      const removed = await api.delete(`/api/article/${before.id}`, { token: alice.token });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe("");
      expect((await api.get(`/api/article/${before.id}`)).status).toBe(404);
      expect((await api.delete(`/api/article/${before.id}`, { token: alice.token })).status).toBe(404);
    });

    it("keeps other users from changing or deleting a record they do not own; 404 comes before 403", async () => {
      const before = await article();
      expect((await api.patch(`/api/article/${before.id}`, { title: "Bob" }, { token: bob.token })).status).toBe(403);
      expect((await api.delete(`/api/article/${before.id}`, { token: bob.token })).status).toBe(403);
      expect((await api.patch(`/api/article/${before.id}`, { title: 5 }, { token: bob.token })).status).toBe(400);
      expect((await api.get(`/api/article/${before.id}`)).body.item.title).toBe("Orig");
      const handOver = await api.patch(`/api/article/${before.id}`, { author: bob.id }, { token: alice.token });
      expect(handOver.status).toBe(403);
      expect((await api.patch(`/api/article/${before.id}`, { author: bob.id }, { token: admin.token })).body.item.author).toBe(bob.id);
    });
  });

  describe("@Owner lists and the hidden ownerId", () => {
    it("sets the hidden ownerId to the caller and filters lists, reads and writes to the caller's records", async () => {
      const a1 = await api.post("/api/note", { text: "a1" }, { token: alice.token });
      const a2 = await api.post("/api/note", { text: "a2" }, { token: alice.token });
      const b1 = await api.post("/api/note", { text: "b1" }, { token: bob.token });
      expect(a1.status, a1.text).toBe(201);
      expect(a1.body.item.ownerId).toBe(alice.id);
      expect(b1.body.item.ownerId).toBe(bob.id);

      const aliceList = await api.get("/api/note", { token: alice.token });
      expect(aliceList.body.total).toBe(2);
      expect(ids(aliceList.body.items)).toEqual([a1.body.item.id, a2.body.item.id]);
      const bobList = await api.get("/api/note?limit=1", { token: bob.token });
      expect(bobList.body).toEqual({ items: [b1.body.item], total: 1, nextCursor: null });
      expect((await api.get("/api/note", { token: admin.token })).body.total).toBe(0);
      expect((await api.get("/api/note")).status).toBe(401);

      expect((await api.get(`/api/note/${a1.body.item.id}`, { token: alice.token })).status).toBe(200);
      expect((await api.get(`/api/note/${a1.body.item.id}`, { token: bob.token })).status).toBe(403);
      expect((await api.patch(`/api/note/${a1.body.item.id}`, { text: "bob was here" }, { token: bob.token })).status).toBe(403);
      expect((await api.delete(`/api/note/${a1.body.item.id}`, { token: bob.token })).status).toBe(403);
      expect((await api.patch(`/api/note/${a1.body.item.id}`, { text: "edited" }, { token: alice.token })).status).toBe(200);
      expect((await api.delete(`/api/note/${a2.body.item.id}`, { token: alice.token })).status).toBe(204);
    });

    it("does not let a member write ownerId", async () => {
      const created = await api.post("/api/note", { text: "x", ownerId: bob.id }, { token: alice.token });
      expect(created.status).toBe(403);
      const note = (await api.post("/api/note", { text: "y" }, { token: alice.token })).body.item;
      expect((await api.patch(`/api/note/${note.id}`, { ownerId: bob.id }, { token: alice.token })).status).toBe(403);
      expect((await api.get("/api/note", { token: bob.token })).body.items.map((item: { text: string }) => item.text)).not.toContain("y");
    });
  });

  describe("routing and the order of checks", () => {
    it("answers 404 for unknown routes before 405 for wrong methods", async () => {
      expect((await api.get("/api/nothing")).status).toBe(404);
      expect((await api.call("PUT", "/api/nothing")).status).toBe(404);
      expect((await api.get("/api/category/a/b")).status).toBe(404);
      const collection = await api.call("PUT", "/api/category");
      expect(collection.status).toBe(405);
      expect(collection.body.code).toBe("METHOD_NOT_ALLOWED");
      expect(collection.headers.get("allow")).toBe("GET, POST, HEAD");
      const item = await api.call("POST", "/api/category/some-id");
      expect(item.status).toBe(405);
      expect(item.headers.get("allow")).toBe("GET, PATCH, DELETE, HEAD");
      for (const id of ["constructor", "__proto__", "toString"]) {
        expect((await api.get(`/api/user/${id}`, { token: admin.token })).status).toBe(404);
      }
    });

    it("decides authorization before looking at the body", async () => {
      const json = { "content-type": "application/json" };
      const malformed = await api.call("POST", "/api/category", undefined, { raw: "{", headers: json });
      expect(malformed.status).toBe(401);
      expect(malformed.body.code).toBe("UNAUTHENTICATED");
      const wrongType = await api.call("POST", "/api/category", undefined, {
        token: alice.token,
        raw: "x",
        headers: { "content-type": "text/plain" },
      });
      expect(wrongType.status).toBe(403);
      const badToken = await api.call("POST", "/api/article", undefined, { token: "bad", raw: "{", headers: json });
      expect(badToken.status).toBe(401);
    });

    it("checks the content type (415), then the size (413), then the JSON (400)", async () => {
      const token = admin.token;
      const big = JSON.stringify({ name: "x".repeat(17 * 1024) });
      expect((await api.call("POST", "/api/category", undefined, { token, raw: big })).status).toBe(415);
      expect(
        (await api.call("POST", "/api/category", undefined, { token, raw: big, headers: { "content-type": "text/plain" } })).status,
      ).toBe(415);
      const tooLarge = await api.call("POST", "/api/category", undefined, {
        token,
        raw: big,
        headers: { "content-type": "application/json" },
      });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body.code).toBe("PAYLOAD_TOO_LARGE");
      for (const raw of ["{", "[]", "null", '"text"', "", "\uFEFF{}"]) {
        const result = await api.call("POST", "/api/category", undefined, {
          token,
          raw,
          headers: { "content-type": "application/json; charset=utf-8" },
        });
        expect(result.status, raw).toBe(400);
        expect(result.body.code).toBe("INVALID_BODY");
      }
      const category = (await api.post("/api/category", { name: "Order" }, { token })).body.item;
      expect(
        (
          await api.call("PATCH", `/api/category/${category.id}`, undefined, {
            token,
            raw: "{}",
            headers: { "content-type": "text/plain" },
          })
        ).status,
      ).toBe(415);
    });

    it("names the clashing field in the 409, even when its name contains __", async () => {
      expect((await api.post("/api/category", { name: "Code 1", short__code: "c1" }, { token: admin.token })).status).toBe(201);
      const clash = await api.post("/api/category", { name: "Code 2", short__code: "c1" }, { token: admin.token });
      expect(clash.status).toBe(409);
      expect(clash.body).toMatchObject({ code: "CONFLICT", issues: [{ path: ["short__code"] }] });
      const named = await api.post("/api/category", { name: "Code 1" }, { token: admin.token });
      expect(named.body).toMatchObject({ code: "CONFLICT", issues: [{ path: ["name"] }] });
    });

    it("answers 409 after 400: a body that is both invalid and clashing is a 400", async () => {
      const name = "Unique one";
      expect((await api.post("/api/category", { name }, { token: admin.token })).status).toBe(201);
      expect((await api.post("/api/category", { name, extra: true }, { token: admin.token })).status).toBe(400);
    });

    it("never answers with a password, a hash or an internal column", async () => {
      const list = await api.get("/api/user?limit=100", { token: admin.token });
      expect(list.status).toBe(200);
      expect(findLeaks(list)).toEqual([]);
    });
  });
});

describe.each(BACKENDS)("entity CRUD under auth.type none on $name", (backend) => {
  const instance = useInstance(backend.create, OPEN_YAML, { secret: undefined });

  it("opens every operation, whatever the permissions say, and ignores the Authorization header", async () => {
    const { api } = instance;
    const headerSets: Record<string, string>[] = [{}, { authorization: "Bearer not-a-token" }, { authorization: "Basic abc" }];
    for (const headers of headerSets) {
      const created = await api.post("/api/memo", { text: "hello" }, { headers });
      expect(created.status, created.text).toBe(201);
      const id = created.body.item.id;
      expect((await api.get("/api/memo", { headers })).status).toBe(200);
      expect((await api.get(`/api/memo/${id}`, { headers })).status).toBe(200);
      expect((await api.patch(`/api/memo/${id}`, { text: "changed" }, { headers })).body.item.text).toBe("changed");
      expect((await api.delete(`/api/memo/${id}`, { headers })).status).toBe(204);
    }
  });

  it("sets the hidden owner to null and refuses any other value", async () => {
    const { api } = instance;
    const created = await api.post("/api/memo", { text: "owned?" });
    expect(created.body.item.ownerId).toBeNull();
    expect((await api.post("/api/memo", { text: "x", ownerId: "someone" })).status).toBe(400);
  });

  it("stores a field named password but never returns it", async () => {
    const { api } = instance;
    const created = await api.post("/api/account", { email: "a@example.com", password: "plain secret", nickname: "A" });
    expect(created.status, created.text).toBe(201);
    const id = created.body.item.id;
    const responses = [
      created,
      await api.get(`/api/account/${id}`),
      await api.get("/api/account"),
      await api.patch(`/api/account/${id}`, { password: "another secret" }),
    ];
    for (const response of responses) {
      expect(response.status).toBeLessThan(300);
      expect(response.text).not.toMatch(/password|secret/i);
    }
  });

  it("has no auth endpoint: 404 for every method", async () => {
    const { api } = instance;
    for (const endpoint of ["login", "register", "me", "setup"]) {
      for (const method of ["GET", "POST", "PATCH", "DELETE", "PUT"]) {
        const result = await api.call(method, `/api/account/${endpoint}`, method === "GET" ? undefined : {});
        expect(result.status, `${method} ${endpoint}`).toBe(404);
        expect(result.body.code).toBe("NOT_FOUND");
      }
    }
  });
});

describe.each(BACKENDS)("a required owner field on $name", (backend) => {
  const instance = useInstance(
    backend.create,
    `name: market
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Seller }
  Listing:
    owner: manager
    fields:
      title: { type: string, required: true }
      manager: { type: ref, to: User, required: true }
    permissions:
      create: [Seller, Admin]
      read: ["*"]
auth:
  type: jwt
  roles: [Admin, Seller]
`,
  );

  it("is filled in from the caller, so a role that may not set it can still create; anonymous callers cannot", async () => {
    const admin = await setUpAdmin(instance.api);
    const seller = await addUser(instance.api, admin, { email: "seller@example.com", role: "Seller" });
    const created = await instance.api.post("/api/listing", { title: "Lamp" }, { token: seller.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body.item.manager).toBe(seller.id);
    const named = await instance.api.post("/api/listing", { title: "Desk", manager: admin.id }, { token: seller.token });
    expect(named.status).toBe(403);
    const forAdmin = await instance.api.post("/api/listing", { title: "Chair", manager: seller.id }, { token: admin.token });
    expect(forAdmin.body.item.manager).toBe(seller.id);
    const document = (await instance.api.get("/api/openapi.json")).body;
    expect(document.paths["/api/listing"].post.requestBody.content["application/json"].schema.required).toEqual(["title"]);
  });
});
