import { addUser, type SignedIn, setUpAdmin, TEST_PASSWORD } from "@domain-auth/test-support/accounts";
import { BACKENDS, type TestDatabase } from "@domain-auth/test-support/databases";
import { domainOf } from "@domain-auth/test-support/domains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, ApiResult } from "../support/client.js";
import { startInstance, type TestInstance, useInstance } from "../support/instance.js";

// Every kind of reference: a declared owner (`author`), a hidden `ownerId` (Note), optional refs
// to the auth entity, to another entity and to the entity itself, and required refs.
const REFS_YAML = `name: refs
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Member }
      mentor: { type: ref, to: User }
  Post:
    owner: author
    fields:
      title: { type: string, required: true }
      author: { type: ref, to: User }
      editor: { type: ref, to: User }
      category: { type: ref, to: Category }
    permissions:
      create: ["@Authenticated"]
      read: ["*"]
      update: ["@Owner", Admin]
      delete: ["@Owner", Admin]
  Note:
    fields:
      text: string
    permissions:
      create: ["@Authenticated"]
      read: ["@Owner", Admin]
      update: ["@Owner", Admin]
      delete: ["@Owner", Admin]
  Review:
    fields:
      stars: integer
      reviewer: { type: ref, to: User, required: true }
      post: { type: ref, to: Post, required: true }
    permissions:
      create: ["@Authenticated"]
      read: ["*"]
      update: [Admin]
      delete: [Admin]
  Category:
    fields:
      name: { type: string, required: true }
      parent: { type: ref, to: Category }
    permissions: { create: [Admin], read: ["*"], update: [Admin], delete: [Admin] }
auth:
  type: jwt
  roles: [Admin, Member]
`;

const domain = domainOf(REFS_YAML);

/** Every ref field of the domain, by entity segment, with the segment of its target. */
const REF_FIELDS = domain.entities.map((entity) => ({
  segment: entity.segment,
  refs: entity.fields
    .filter((field) => field.type === "ref")
    .map((field) => ({ name: field.name, target: domain.entities.find((candidate) => candidate.name === field.to)?.segment })),
}));

const later = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

function expectStatus(result: ApiResult, status: number): void {
  expect(result.status, result.text).toBe(status);
}

async function created(result: Promise<ApiResult>): Promise<Record<string, unknown> & { id: string; updatedAt: string }> {
  const response = await result;
  expectStatus(response, 201);
  return response.body.item;
}

async function readItem(api: ApiClient, segment: string, id: string, token: string): Promise<Record<string, unknown>> {
  const result = await api.get(`/api/${segment}/${id}`, { token });
  expectStatus(result, 200);
  return result.body.item;
}

async function listAll(api: ApiClient, segment: string, token: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.get(`/api/${segment}?limit=100&offset=${offset}`, { token });
    expectStatus(page, 200);
    items.push(...page.body.items);
    if (items.length >= page.body.total) return items;
  }
}

/** Every `ref` value, read through the API, that names no existing record: `Entity.field -> id`. */
async function danglingRefs(api: ApiClient, token: string): Promise<string[]> {
  const ids = new Map<string, Set<string>>();
  const records = new Map<string, Record<string, unknown>[]>();
  for (const { segment } of REF_FIELDS) {
    const items = await listAll(api, segment, token);
    records.set(segment, items);
    ids.set(segment, new Set(items.map((item) => item.id as string)));
  }
  const dangling: string[] = [];
  for (const { segment, refs } of REF_FIELDS) {
    for (const item of records.get(segment) ?? []) {
      for (const ref of refs) {
        const value = item[ref.name];
        if (value !== null && !ids.get(ref.target ?? "")?.has(value as string)) dangling.push(`${segment}.${ref.name} -> ${value}`);
      }
    }
  }
  return dangling;
}

describe.each(BACKENDS)("deleting a referenced record on $name", (backend) => {
  const instance = useInstance(backend.create, REFS_YAML);
  let api: ApiClient;
  let admin: SignedIn;

  beforeAll(async () => {
    api = instance.api;
    admin = await setUpAdmin(api);
  });

  it("clears optional refs and owner ids that point at a deleted user, and keeps the records", async () => {
    const alice = await addUser(api, admin, { email: "alice@example.com" });
    const bob = await addUser(api, admin, { email: "bob@example.com" });
    const own = await created(api.post("/api/post", { title: "Mine" }, { token: alice.token }));
    const edited = await created(api.post("/api/post", { title: "Edited", editor: alice.id }, { token: admin.token }));
    const note = await created(api.post("/api/note", { text: "hidden owner" }, { token: alice.token }));
    expect(own.author).toBe(alice.id);
    expect(note.ownerId).toBe(alice.id);
    expectStatus(await api.patch(`/api/user/${bob.id}`, { mentor: alice.id }, { token: admin.token }), 200);
    const bobBefore = await readItem(api, "user", bob.id, admin.token);

    expectStatus(await api.delete(`/api/user/${alice.id}`, { token: admin.token }), 204);

    expectStatus(await api.get(`/api/user/${alice.id}`, { token: admin.token }), 404);
    const ownAfter = await readItem(api, "post", own.id, admin.token);
    expect(ownAfter).toMatchObject({ title: "Mine", author: null });
    expect(String(ownAfter.updatedAt) > own.updatedAt).toBe(true);
    expect(await readItem(api, "post", edited.id, admin.token)).toMatchObject({ title: "Edited", author: admin.id, editor: null });
    expect(await readItem(api, "note", note.id, admin.token)).toMatchObject({ text: "hidden owner", ownerId: null });
    const bobAfter = await readItem(api, "user", bob.id, admin.token);
    expect(bobAfter).toMatchObject({ email: "bob@example.com", mentor: null });
    expect(String(bobAfter.updatedAt) > String(bobBefore.updatedAt)).toBe(true);
    expect(await danglingRefs(api, admin.token)).toEqual([]);
  });

  it("refuses with 409 CONFLICT, changing nothing, while a required ref points at the user", async () => {
    const carol = await addUser(api, admin, { email: "carol@example.com" });
    const post = await created(api.post("/api/post", { title: "Carol's", editor: carol.id }, { token: carol.token }));
    const review = await created(api.post("/api/review", { stars: 5, reviewer: carol.id, post: post.id }, { token: carol.token }));
    await created(api.post("/api/review", { stars: 4, reviewer: carol.id, post: post.id }, { token: admin.token }));

    const refused = await api.delete(`/api/user/${carol.id}`, { token: admin.token });
    expectStatus(refused, 409);
    expect(refused.body).toEqual({
      code: "CONFLICT",
      message: expect.stringContaining("Review"),
      issues: [{ path: ["Review", "reviewer"], message: "2 records refer to this" }],
    });

    expect(await readItem(api, "user", carol.id, admin.token)).toMatchObject({ email: "carol@example.com" });
    expect(await readItem(api, "post", post.id, admin.token)).toEqual(post);
    expect(await readItem(api, "review", review.id, admin.token)).toEqual(review);

    for (const item of await listAll(api, "review", admin.token)) {
      if (item.reviewer === carol.id) expectStatus(await api.delete(`/api/review/${item.id}`, { token: admin.token }), 204);
    }
    expectStatus(await api.delete(`/api/user/${carol.id}`, { token: admin.token }), 204);
    expect(await readItem(api, "post", post.id, admin.token)).toMatchObject({ author: null, editor: null });
  });

  it("treats a referenced record of any entity the same way", async () => {
    const root = await created(api.post("/api/category", { name: "Root" }, { token: admin.token }));
    const child = await created(api.post("/api/category", { name: "Child", parent: root.id }, { token: admin.token }));
    const post = await created(api.post("/api/post", { title: "Filed", category: root.id }, { token: admin.token }));
    const review = await created(api.post("/api/review", { reviewer: admin.id, post: post.id }, { token: admin.token }));

    expectStatus(await api.delete(`/api/category/${root.id}`, { token: admin.token }), 204);
    expect(await readItem(api, "category", child.id, admin.token)).toMatchObject({ name: "Child", parent: null });
    expect(await readItem(api, "post", post.id, admin.token)).toMatchObject({ title: "Filed", category: null });

    const refused = await api.delete(`/api/post/${post.id}`, { token: admin.token });
    expectStatus(refused, 409);
    expect(refused.body.code).toBe("CONFLICT");
    expect(refused.body.issues).toEqual([{ path: ["Review", "post"], message: "1 record refers to this" }]);
    expect(await readItem(api, "post", post.id, admin.token)).toMatchObject({ title: "Filed" });

    expectStatus(await api.delete(`/api/review/${review.id}`, { token: admin.token }), 204);
    expectStatus(await api.delete(`/api/post/${post.id}`, { token: admin.token }), 204);
    expect(await danglingRefs(api, admin.token)).toEqual([]);
  });

  it("deletes a user whose own ref points at itself", async () => {
    const self = await addUser(api, admin, { email: "self@example.com" });
    expectStatus(await api.patch(`/api/user/${self.id}`, { mentor: self.id }, { token: admin.token }), 200);
    expectStatus(await api.delete(`/api/user/${self.id}`, { token: admin.token }), 204);
  });

  it("keeps answering 400 INVALID_BODY for a ref to a deleted record", async () => {
    const gone = await addUser(api, admin, { email: "gone@example.com" });
    expectStatus(await api.delete(`/api/user/${gone.id}`, { token: admin.token }), 204);
    const result = await api.post("/api/post", { title: "Late", editor: gone.id }, { token: admin.token });
    expectStatus(result, 400);
    expect(result.body.code).toBe("INVALID_BODY");
    expect(result.body.issues).toEqual([{ path: ["editor"], message: "is not the id of an existing User" }]);
  });

  it("checks the refs a registration names, like any create", async () => {
    const gone = await addUser(api, admin, { email: "gone2@example.com" });
    expectStatus(await api.delete(`/api/user/${gone.id}`, { token: admin.token }), 204);
    const result = await api.post("/api/user/register", { email: "late@example.com", password: TEST_PASSWORD, mentor: gone.id });
    expectStatus(result, 400);
    expect(result.body.issues).toEqual([{ path: ["mentor"], message: "is not the id of an existing User" }]);
    const mentored = await api.post("/api/user/register", { email: "mentee@example.com", password: TEST_PASSWORD, mentor: admin.id });
    expectStatus(mentored, 201);
    expect(mentored.body.user.mentor).toBe(admin.id);
  });
});

// On PostgreSQL two instances share the database, as they would behind a load balancer.
describe.each(BACKENDS)("deleting a user while records that refer to it are written, on $name", (backend) => {
  const ROUNDS = 3;
  const WRITERS = 20;
  let database: TestDatabase;
  let instances: TestInstance[];
  let admin: SignedIn;

  beforeAll(async () => {
    database = await backend.create();
    instances = [await startInstance(domain, database.url)];
    if (backend.name === "postgres") instances.push(await startInstance(domain, database.url));
    admin = await setUpAdmin(instances[0]?.api as ApiClient);
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.auth.close();
    await database?.drop();
  });

  const apiFor = (index: number): ApiClient => (instances[index % instances.length] as TestInstance).api;

  // Only the last round writes required refs, which may make the delete a 409 instead.
  it.each(Array.from({ length: ROUNDS }, (_, round) => round))("leaves no ref to a missing record (round %i)", async (round) => {
    const api = apiFor(0);
    const dave = await addUser(api, admin, { email: `dave${round}@example.com` });
    const target = await created(api.post("/api/post", { title: "Target" }, { token: admin.token }));
    const kinds = round === ROUNDS - 1 ? 5 : 4;
    const write = (index: number): Promise<ApiResult> => {
      const client = apiFor(index);
      switch (index % kinds) {
        case 0:
          return client.post("/api/post", { title: `by admin ${index}`, editor: dave.id }, { token: admin.token });
        case 1:
          return client.post("/api/note", { text: `by dave ${index}` }, { token: dave.token });
        case 2:
          return client.patch(`/api/post/${target.id}`, { editor: dave.id }, { token: admin.token });
        case 3:
          // A password is hashed between the check of the body and the insert.
          return client.post(
            "/api/user",
            { email: `mentee${round}.${index}@example.com`, password: TEST_PASSWORD, mentor: dave.id },
            { token: admin.token },
          );
        default:
          return client.post("/api/review", { reviewer: dave.id, post: target.id }, { token: admin.token });
      }
    };
    // The writes start spread over a few milliseconds, the delete in their midst.
    const writes = Array.from({ length: WRITERS }, (_, index) => later(index % 5).then(() => write(index)));
    const deletion = later(2).then(() => apiFor(1).delete(`/api/user/${dave.id}`, { token: admin.token }));
    const results = await Promise.all([...writes, deletion]);

    const statuses = results.map((result) => result.status);
    expect(
      statuses.every((status) => [200, 201, 204, 400, 401, 409].includes(status)),
      statuses.join(","),
    ).toBe(true);
    const deleted = (await deletion).status === 204;
    if (!deleted) {
      expect((await deletion).body.code).toBe("CONFLICT");
      expectStatus(await api.get(`/api/user/${dave.id}`, { token: admin.token }), 200);
    }
    expect(await danglingRefs(api, admin.token)).toEqual([]);

    // Reviews are required refs: remove them (and, when it was refused, the user) for the next round.
    for (const item of await listAll(api, "review", admin.token)) {
      expectStatus(await api.delete(`/api/review/${item.id}`, { token: admin.token }), 204);
    }
    if (!deleted) expectStatus(await api.delete(`/api/user/${dave.id}`, { token: admin.token }), 204);
    expect(await danglingRefs(api, admin.token)).toEqual([]);
  });
});
