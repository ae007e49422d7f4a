import { type SignedIn, setUpAdmin, signIn, signUp } from "@domain-auth/test-support/accounts";
import { BACKENDS } from "@domain-auth/test-support/databases";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiClient } from "../support/client.js";
import { useClockedPair } from "../support/clocked.js";

const BASE64URL = /^[A-Za-z0-9_-]+$/;

async function refreshWith(api: ApiClient, refreshToken: string) {
  return api.post("/api/user/refresh", { refreshToken });
}

async function expectRefused(api: ApiClient, refreshToken: string): Promise<void> {
  const answer = await refreshWith(api, refreshToken);
  expect(answer.status).toBe(401);
  expect(answer.body.code).toBe("INVALID_REFRESH_TOKEN");
}

describe.each(BACKENDS)("refresh tokens on $name", (backend) => {
  const pair = useClockedPair(backend.create);
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(pair.first.api);
  });

  it("come with login and setup: opaque, 32 random bytes or more, for AUTH_REFRESH_TTL seconds", async () => {
    const login = await pair.first.api.post("/api/user/login", { email: admin.email, password: admin.password });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(["expiresIn", "refreshExpiresIn", "refreshToken", "token", "tokenType", "user"]);
    for (const refreshToken of [login.body.refreshToken, admin.refreshToken]) {
      expect(refreshToken).toMatch(BASE64URL);
      expect(Buffer.from(refreshToken, "base64url").byteLength).toBeGreaterThanOrEqual(32);
    }
    expect(login.body.refreshExpiresIn).toBe(2592000);
    expect(login.body.refreshToken).not.toBe(admin.refreshToken);
    const sid = decodeJwt(login.body.token).sid;
    expect(typeof sid).toBe("string");
    expect(Buffer.from(String(sid), "base64url").byteLength).toBe(16);
    expect(sid).not.toBe(decodeJwt(admin.token).sid);
  });

  it("rotate: a new pair and the user re-read, the presented token spent", async () => {
    const user = await signUp(pair.first.api, { email: "rotate@example.com", name: "Before" });
    await pair.first.api.patch(`/api/user/${user.id}`, { name: "After" }, { token: user.token });
    const answer = await refreshWith(pair.first.api, user.refreshToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    expect(answer.body).toMatchObject({
      tokenType: "Bearer",
      expiresIn: 3600,
      refreshExpiresIn: 2592000,
      user: { id: user.id, name: "After" },
    });
    expect(answer.body.refreshToken).not.toBe(user.refreshToken);
    expect(decodeJwt(answer.body.token).sid).toBe(decodeJwt(user.token).sid);
    expect((await pair.second.api.get("/api/user/me", { token: answer.body.token })).status).toBe(200);
    // The next token works once too.
    const next = await refreshWith(pair.second.api, answer.body.refreshToken);
    expect(next.status).toBe(200);
  });

  it("never hash a password", async () => {
    const user = await signUp(pair.first.api, { email: "nohash@example.com" });
    const hasher = pair.first.auth.tools.hasher;
    if (!hasher) throw new Error("jwt instance has a hasher");
    const hash = vi.spyOn(hasher, "hash");
    const verify = vi.spyOn(hasher, "verify");
    const verifyNothing = vi.spyOn(hasher, "verifyNothing");
    try {
      expect((await refreshWith(pair.first.api, user.refreshToken)).status).toBe(200);
      await expectRefused(pair.first.api, "unknown-token");
      expect(hash).not.toHaveBeenCalled();
      expect(verify).not.toHaveBeenCalled();
      expect(verifyNothing).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("refuse unknown, empty and malformed tokens", async () => {
    await expectRefused(pair.first.api, "A".repeat(43));
    const empty = await refreshWith(pair.first.api, "");
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("INVALID_BODY");
    const missing = await pair.first.api.post("/api/user/refresh", {});
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0].path).toEqual(["refreshToken"]);
    expect((await pair.first.api.post("/api/user/refresh", { refreshToken: 42 })).status).toBe(400);
    expect((await pair.first.api.post("/api/user/refresh", undefined, { raw: "x" })).status).toBe(415);
  });

  it("a spent token presented again after the grace revokes the whole session, its access token too", async () => {
    const user = await signUp(pair.first.api, { email: "reuse@example.com" });
    const rotated = await refreshWith(pair.first.api, user.refreshToken);
    expect(rotated.status).toBe(200);
    pair.advance(11);
    await expectRefused(pair.second.api, user.refreshToken);
    // The thief's (or the victim's) newest tokens die with the session.
    await expectRefused(pair.first.api, rotated.body.refreshToken);
    expect((await pair.first.api.get("/api/user/me", { token: rotated.body.token })).status).toBe(401);
    expect((await pair.second.api.get("/api/user/me", { token: user.token })).status).toBe(401);
    // Other sessions of the user are untouched.
    const other = await signIn(pair.first.api, { email: "reuse@example.com" });
    expect((await pair.first.api.get("/api/user/me", { token: other.token })).status).toBe(200);
  });

  it("a spent token presented again within 10 seconds of its rotation is refused without revoking", async () => {
    const user = await signUp(pair.first.api, { email: "grace@example.com" });
    const rotated = await refreshWith(pair.first.api, user.refreshToken);
    expect(rotated.status).toBe(200);
    pair.advance(10);
    await expectRefused(pair.second.api, user.refreshToken);
    expect((await pair.first.api.get("/api/user/me", { token: rotated.body.token })).status).toBe(200);
    expect((await refreshWith(pair.first.api, rotated.body.refreshToken)).status).toBe(200);
  });

  it("a token spent two rotations ago, presented after the grace, revokes the session the thief kept refreshing", async () => {
    const owner = await signUp(pair.first.api, { email: "thief2@example.com" });
    const second = await refreshWith(pair.second.api, owner.refreshToken);
    const third = await refreshWith(pair.second.api, second.body.refreshToken);
    expect(third.status).toBe(200);
    pair.advance(11);
    await expectRefused(pair.first.api, owner.refreshToken);
    await expectRefused(pair.second.api, third.body.refreshToken);
    expect((await pair.second.api.get("/api/user/me", { token: third.body.token })).status).toBe(401);
    expect((await pair.first.api.get("/api/user/me", { token: owner.token })).status).toBe(401);
  });

  it("any earlier token of a long chain, presented after the grace, revokes the session", async () => {
    const owner = await signUp(pair.first.api, { email: "chain@example.com" });
    const chain = [owner.refreshToken];
    let newest = { token: owner.token, refreshToken: owner.refreshToken };
    for (let rotation = 0; rotation < 4; rotation++) {
      pair.advance(20);
      const answer = await refreshWith(rotation % 2 === 0 ? pair.second.api : pair.first.api, newest.refreshToken);
      expect(answer.status).toBe(200);
      newest = answer.body;
      chain.push(newest.refreshToken);
    }
    expect(chain).toHaveLength(5);
    await expectRefused(pair.first.api, chain[1] as string);
    await expectRefused(pair.second.api, newest.refreshToken);
    expect((await pair.second.api.get("/api/user/me", { token: newest.token })).status).toBe(401);
    // Other sessions of the user are untouched.
    const other = await signIn(pair.first.api, { email: "chain@example.com" });
    expect((await pair.first.api.get("/api/user/me", { token: other.token })).status).toBe(200);
  });

  it("an earlier token is judged by its own rotation: past its grace it revokes, even within 10 s of the latest", async () => {
    const owner = await signUp(pair.first.api, { email: "own-rotation@example.com" });
    const second = await refreshWith(pair.first.api, owner.refreshToken);
    pair.advance(8);
    const third = await refreshWith(pair.second.api, second.body.refreshToken);
    expect(third.status).toBe(200);
    pair.advance(3);
    await expectRefused(pair.first.api, owner.refreshToken);
    await expectRefused(pair.second.api, third.body.refreshToken);
    expect((await pair.second.api.get("/api/user/me", { token: third.body.token })).status).toBe(401);
  });

  it("earlier tokens presented within 10 seconds of their own rotation are refused without revoking", async () => {
    const owner = await signUp(pair.first.api, { email: "grace-chain@example.com" });
    const second = await refreshWith(pair.first.api, owner.refreshToken);
    pair.advance(4);
    const third = await refreshWith(pair.second.api, second.body.refreshToken);
    pair.advance(5);
    await expectRefused(pair.second.api, owner.refreshToken);
    await expectRefused(pair.first.api, second.body.refreshToken);
    expect((await pair.first.api.get("/api/user/me", { token: third.body.token })).status).toBe(200);
    const fourth = await refreshWith(pair.second.api, third.body.refreshToken);
    expect(fourth.status).toBe(200);
    expect((await pair.first.api.get("/api/user/me", { token: fourth.body.token })).status).toBe(200);
  });

  it("of 20 simultaneous refreshes with one token, across two instances, exactly one is 200", async () => {
    const user = await signUp(pair.first.api, { email: "race@example.com" });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => refreshWith(index % 2 === 0 ? pair.first.api : pair.second.api, user.refreshToken)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(19);
    expect(answers.every((answer) => answer.status === 200 || answer.body.code === "INVALID_REFRESH_TOKEN")).toBe(true);
    // The losers came within the grace: the winner's session lives on.
    const winner = answers.find((answer) => answer.status === 200);
    expect((await pair.second.api.get("/api/user/me", { token: winner?.body.token })).status).toBe(200);
    expect((await refreshWith(pair.second.api, winner?.body.refreshToken)).status).toBe(200);
  });

  it("of a deleted user are refused", async () => {
    const user = await signUp(pair.first.api, { email: "deleted@example.com" });
    expect((await pair.first.api.delete(`/api/user/${user.id}`, { token: admin.token })).status).toBe(204);
    await expectRefused(pair.second.api, user.refreshToken);
  });

  it("expire AUTH_REFRESH_TTL after the last refresh", async () => {
    const user = await signUp(pair.first.api, { email: "idle@example.com" });
    pair.advance(2592000 - 1);
    const kept = await refreshWith(pair.first.api, user.refreshToken);
    expect(kept.status).toBe(200);
    pair.advance(2592000);
    await expectRefused(pair.first.api, kept.body.refreshToken);
    // The session is over: its last access token is refused too.
    expect((await pair.first.api.get("/api/user/me", { token: kept.body.token })).status).toBe(401);
  });
});

describe.each(BACKENDS)("AUTH_SESSION_MAX_AGE on $name", (backend) => {
  const pair = useClockedPair(backend.create, { refreshTtlSeconds: 100, sessionMaxAgeSeconds: 250 });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await setUpAdmin(pair.first.api);
  });

  it("caps refreshExpiresIn and the session, however often it is refreshed", async () => {
    expect((await pair.first.api.post("/api/user/login", { email: admin.email, password: admin.password })).body.refreshExpiresIn).toBe(
      100,
    );
    let refreshToken = admin.refreshToken;
    const expected: [number, number][] = [
      [90, 100],
      [90, 70],
      [60, 10],
    ];
    for (const [wait, expiresIn] of expected) {
      pair.advance(wait);
      const answer = await refreshWith(pair.second.api, refreshToken);
      expect(answer.status).toBe(200);
      expect(answer.body.refreshExpiresIn).toBe(expiresIn);
      refreshToken = answer.body.refreshToken;
    }
    pair.advance(10);
    await expectRefused(pair.first.api, refreshToken);
  });
});

describe.each(BACKENDS)("ended sessions on $name", (backend) => {
  const pair = useClockedPair(backend.create);

  it("are purged, so the table stays bounded", async () => {
    const sessions = pair.first.auth.tools.sessions;
    if (!sessions) throw new Error("jwt instance has sessions");
    const admin = await setUpAdmin(pair.first.api);
    const other = await signUp(pair.first.api, { email: "churn@example.com" });
    for (let round = 0; round < 30; round++) {
      const signedIn = await signIn(pair.first.api, { email: "churn@example.com" });
      expect((await pair.first.api.post("/api/user/logout", undefined, { token: signedIn.token })).status).toBe(204);
      const spent = await signIn(pair.second.api, { email: admin.email, password: admin.password });
      expect((await refreshWith(pair.second.api, spent.refreshToken)).status).toBe(200);
    }
    expect(await sessions.store.count()).toBeGreaterThanOrEqual(62);
    expect(await sessions.store.count("spent")).toBeGreaterThanOrEqual(30);
    // A day after they ended (and past the refresh TTL for the ones left open), the next sign-in
    // purges that user's ended rows, and a sweep everyone's.
    pair.advance(32 * 24 * 3600);
    const fresh = await signIn(pair.first.api, { email: "churn@example.com" });
    expect(await sessions.store.count()).toBe(1);
    expect(await sessions.store.count("spent")).toBe(0);
    expect((await pair.first.api.get("/api/user/me", { token: fresh.token })).status).toBe(200);
    expect((await pair.first.api.get("/api/user/me", { token: other.token })).status).toBe(401);
  });
});
