// Lists at scale (docs/api.md#lists): a page of 20 posts from 1,000, 100,000 and 1,000,000, the first
// page and a deep one (after the cursor of the 900,000th of a million), on SQLite and PostgreSQL,
// in process, the sizes taking turns. Keyset paging and a capped count should keep them alike.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createAuth } from "@domain-auth/core";
import { loadDomain } from "@domain-auth/core/config";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { DOMAIN_FILE, SECRET } from "./in-process.mjs";

/** Where PostgreSQL is: `BENCH_POSTGRES_URL`, else the local server as `postgres`. */
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** When the first filled post was made; each next one a millisecond later. */
const START = Date.UTC(2025, 0, 1);
/** The `createdAt` and id of the `i`-th filled post, as the fill writes them. */
const positionOf = (i) => [new Date(START + i).toISOString(), `bulk-${String(i).padStart(8, "0")}`];

function fillSqlite(file, count) {
  const db = new Sqlite(file);
  try {
    db.prepare(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i < ?)
       insert into post (id, createdAt, updatedAt, title, published)
       select printf('bulk-%08d', i), strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'),
         strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'), 'Post ' || i, 0
       from n`,
    ).run(count - 1, START, START);
    db.exec("analyze");
  } finally {
    db.close();
  }
}

async function fillPostgres(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const instant = `to_char(to_timestamp((${START} + i) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    await client.query(
      `insert into post ("id", "createdAt", "updatedAt", "title", "published")
       select 'bulk-' || lpad(i::text, 8, '0'), ${instant}, ${instant}, 'Post ' || i, 0
       from generate_series(0, $1::int) as i`,
      [count - 1],
    );
    await client.query("analyze post");
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database (its URL and name), and how to drop it; `null` when PostgreSQL is not there. */
export async function postgresDatabase(name) {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const database = `bench_${name}_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  };
  return { url: url.toString(), name: database, drop };
}

/** An instance over `count` posts: its first page and a page deep in (after 90 % of them). */
async function instanceWithPosts(dir, dialect, count) {
  const name = `${dialect}-${count}`;
  const postgres = dialect === "postgres" ? await postgresDatabase(`lists_${count}`) : null;
  if (dialect === "postgres" && !postgres) return null;
  const file = join(dir, `lists-${name}.db`);
  const auth = await createAuth({
    domain: await loadDomain(DOMAIN_FILE),
    database: postgres ? postgres.url : `file:${file}`,
    secret: SECRET,
    bcryptCost: 4,
  });
  if (postgres) await fillPostgres(postgres.url, count);
  else fillSqlite(file, count);
  const [createdAt, id] = positionOf(Math.min(Math.floor(count * 0.9), count - 21));
  const after = Buffer.from(JSON.stringify([createdAt, id]), "utf8").toString("base64url");
  const page = (query) => async () => {
    const response = await auth.handle(new Request(`http://localhost/api/post?${query}`));
    const body = await response.json();
    return response.status === 200 && body.items.length === 20;
  };
  return {
    first: page("limit=20"),
    deep: page(`limit=20&after=${after}`),
    close: async () => {
      await auth.close();
      await postgres?.drop();
    },
  };
}

/** For each database, an instance per size; PostgreSQL is left out (and said so) when it cannot be reached. */
export async function createListScale(dir, { sizes = [1_000, 100_000, 1_000_000], dialects = ["sqlite", "postgres"] } = {}) {
  const instances = {};
  const missing = [];
  for (const dialect of dialects) {
    for (const size of sizes) {
      const instance = await instanceWithPosts(dir, dialect, size);
      if (instance) instances[`${dialect}:${size}`] = instance;
      else if (!missing.includes(dialect)) missing.push(dialect);
    }
  }
  return {
    sizes,
    dialects: dialects.filter((dialect) => !missing.includes(dialect)),
    missing,
    instances,
    close: () => Promise.all(Object.values(instances).map((instance) => instance.close())),
  };
}
