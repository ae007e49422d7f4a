// Lists at scale (docs/api.md#lists): a page of 20 posts from 1,000, 100,000 and 1,000,000, the first
// page and a deep one (after the cursor of the 900,000th of a million), on SQLite and PostgreSQL,
// in process, the sizes taking turns. Keyset paging and a capped count should keep them alike.
// With `queries`, each instance also pages the refined lists beside that default order: a search
// (`q` in 1 % of the titles), a sort by the title (first page and one `after` the 90 % mark of that
// order) and an enum filter (`where.status`, a quarter of the posts).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAuth } from "@domain-auth/core";
import { validateDomainText } from "@domain-auth/core/config";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { DOMAIN_FILE, SECRET } from "./in-process.mjs";
import { alternate, closedLoop } from "./load.mjs";

/** Where PostgreSQL is: `BENCH_POSTGRES_URL`, else the local server as `postgres`. */
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** When the first filled post was made; each next one a millisecond later. */
const START = Date.UTC(2025, 0, 1);
/** The `createdAt` and id of the `i`-th filled post, as the fill writes them. */
const positionOf = (i) => [new Date(START + i).toISOString(), `bulk-${String(i).padStart(8, "0")}`];
/** The sizes of the refined lists' rows (`queries`), each beside the default order's pages of the same size. */
export const QUERY_SIZES = [10_000, 100_000, 1_000_000];
/** The word in one title of a hundred (those whose number ends in 42), which the search asks for. */
export const SEARCHED = "release";
/** The values of the posts' `status`, the `i`-th post holding the `i % 4`-th; the filter keeps the second. */
const STATUSES = ["draft", "review", "published", "archived"];
/** The refined first pages measured beside the default order's, by name: each one's query string. */
export const QUERY_PAGES = {
  search: `limit=20&q=${SEARCHED}`,
  sort: "limit=20&sort=title",
  filter: `limit=20&where.status=${STATUSES[1]}`,
};
/** The bench domain with an enum on Post, to filter by: the other benchmarks' domain has none. */
function listDomain() {
  const anchor = "      author: { type: ref, to: User }\n";
  const text = readFileSync(DOMAIN_FILE, "utf8");
  if (!text.includes(anchor)) throw new Error(`no "author" field of Post in ${DOMAIN_FILE}`);
  const status = `      status: { type: enum, values: [${STATUSES.join(", ")}] }\n`;
  const { model, diagnostics } = validateDomainText(text.replace(anchor, anchor + status));
  if (!model) throw new Error(`the lists' domain is not valid: ${JSON.stringify(diagnostics)}`);
  return model;
}
/** SQL of the `i`-th post's title and status (the same text on both databases). */
const TITLE_SQL = `'Post ' || i || (case when i % 100 = 42 then ' ${SEARCHED}' else '' end)`;
const STATUS_SQL = `(case i % 4 ${STATUSES.map((status, index) => `when ${index} then '${status}'`).join(" ")} end)`;
/** The title and id of the post at `index` in title order, as `sort=title` pages them (titles are never empty). */
const TITLE_AT = `select "title", "id" from post order by "title", "id" limit 1 offset `;

function fillSqlite(file, count) {
  const db = new Sqlite(file);
  try {
    db.prepare(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i < ?)
       insert into post (id, createdAt, updatedAt, title, published, status)
       select printf('bulk-%08d', i), strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'),
         strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch'), ${TITLE_SQL}, 0, ${STATUS_SQL}
       from n`,
    ).run(count - 1, START, START);
    db.exec("analyze");
    const { title, id } = db.prepare(`${TITLE_AT}?`).get(deepIndex(count));
    return [title, id];
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
      `insert into post ("id", "createdAt", "updatedAt", "title", "published", "status")
       select 'bulk-' || lpad(i::text, 8, '0'), ${instant}, ${instant}, ${TITLE_SQL}, 0, ${STATUS_SQL}
       from generate_series(0, $1::int) as i`,
      [count - 1],
    );
    await client.query("analyze post");
    const { rows } = await client.query(`${TITLE_AT}$1`, [deepIndex(count)]);
    return [rows[0].title, rows[0].id];
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

/** The place of the deep page's cursor: 90 % in, with a whole page after it. */
const deepIndex = (count) => Math.min(Math.floor(count * 0.9), count - 21);
/** An opaque cursor, as the API makes them (base64url of a JSON array). */
const cursorOf = (values) => Buffer.from(JSON.stringify(values), "utf8").toString("base64url");

/**
 * An instance over `count` posts: its first page and a page deep in (after 90 % of them), and with
 * `queries` the first page of each of {@link QUERY_PAGES} and the sort's page after its 90 % mark.
 */
async function instanceWithPosts(dir, dialect, count, queries) {
  const name = `${dialect}-${count}`;
  const postgres = dialect === "postgres" ? await postgresDatabase(`lists_${count}`) : null;
  if (dialect === "postgres" && !postgres) return null;
  // Its own file, as another scale in the same folder may have the same size.
  const file = join(dir, `lists-${name}-${randomBytes(4).toString("hex")}.db`);
  const auth = await createAuth({
    domain: listDomain(),
    database: postgres ? postgres.url : `file:${file}`,
    secret: SECRET,
    bcryptCost: 4,
  });
  const byTitle = postgres ? await fillPostgres(postgres.url, count) : fillSqlite(file, count);
  const page = (query) => async () => {
    const response = await auth.handle(new Request(`http://localhost/api/post?${query}`));
    const body = await response.json();
    return response.status === 200 && body.items.length === 20;
  };
  const pages = {
    first: page("limit=20"),
    deep: page(`limit=20&after=${cursorOf(positionOf(deepIndex(count)))}`),
  };
  if (queries) {
    for (const [kind, query] of Object.entries(QUERY_PAGES)) pages[kind] = page(query);
    pages.sortDeep = page(`${QUERY_PAGES.sort}&after=${cursorOf(["title", ...byTitle])}`);
  }
  return {
    ...pages,
    pages: Object.keys(pages),
    close: async () => {
      await auth.close();
      await postgres?.drop();
    },
  };
}

/**
 * For each database, an instance per size; PostgreSQL is left out (and said so) when it cannot be
 * reached. `queries`: each instance pages the refined lists too.
 */
export async function createListScale(
  dir,
  { sizes = [1_000, 100_000, 1_000_000], dialects = ["sqlite", "postgres"], queries = false } = {},
) {
  const instances = {};
  const missing = [];
  for (const dialect of dialects) {
    for (const size of sizes) {
      const instance = await instanceWithPosts(dir, dialect, size, queries);
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

/**
 * Every page of every instance in turns (`<dialect>:<size>:<page>`, pages/s, medians of `rounds`):
 * what `npm run bench` reports as the lists at scale, and with `queries` the refined lists.
 */
export async function measureListScale(lists, { rounds, durationMs = 1000, callers = 10 }) {
  const turns = Object.entries(lists.instances).flatMap(([key, instance]) =>
    instance.pages.map((page) => ({
      name: `${key}:${page}`,
      measure: async () => (await closedLoop(instance[page], { concurrency: callers, durationMs })).opsPerSecond,
    })),
  );
  return {
    sizes: lists.sizes,
    smallest: lists.sizes[0],
    largest: lists.sizes[lists.sizes.length - 1],
    dialects: lists.dialects,
    missing: lists.missing,
    rounds,
    results: await alternate(turns, rounds),
  };
}
