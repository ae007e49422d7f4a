#!/usr/bin/env node
// The floor of `GET /api/user/me` on node:http, written by hand for the bench only: one HS256 check
// with node:crypto, the same read of the session and its user by primary key with one prepared
// better-sqlite3 statement, JSON out. No routing, no Web Request/Response, no validation beyond
// what the answer needs. It reads the database of the bare server (FLOOR_DATABASE, read-only) and
// answers every request as `me`. Prints `{"port":N}` when listening.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import Database from "better-sqlite3";

const secret = process.env.AUTH_SECRET;
const issuer = process.env.FLOOR_ISSUER ?? "blog";
const db = new Database(process.env.FLOOR_DATABASE, { readonly: true, fileMustExist: true });
const read = db.prepare(
  `select u.id, u.email, u.name, u.role, u.tokenVersion, u.emailVerified, u.createdAt, u.updatedAt, s.expiresAt, s.revokedAt
   from domain_auth_sessions s join "user" u on u.id = s.userId where s.id = ?`,
);
const HEADERS = { "x-content-type-options": "nosniff", "cache-control": "no-store", "content-type": "application/json; charset=utf-8" };
const refuse = (response) => {
  response.writeHead(401, HEADERS);
  response.end('{"code":"UNAUTHENTICATED"}');
};

const server = createServer((request, response) => {
  const token = (request.headers.authorization ?? "").slice("Bearer ".length);
  const [head, body, signature] = token.split(".");
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature ?? "", "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refuse(response);
  const claims = JSON.parse(Buffer.from(body, "base64url").toString());
  const now = Date.now();
  if (claims.iss !== issuer || claims.exp * 1000 <= now) return refuse(response);
  const row = read.get(claims.sid);
  if (!row || row.revokedAt !== null || row.expiresAt <= now || row.id !== claims.sub || row.tokenVersion !== claims.ver)
    return refuse(response);
  const text = JSON.stringify({
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      emailVerified: row.emailVerified === 1,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
  });
  response.writeHead(200, { ...HEADERS, "content-length": Buffer.byteLength(text) });
  response.end(text);
});
server.keepAliveTimeout = 10_000;
server.listen(Number(process.env.PORT || 0), "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    db.close();
    process.exit(0);
  });
}
