// Tenant lists at scale (docs/api.md#lists, organizations): a page of 20 of one organization's
// projects from a tenant table of 1,000 records (one organization) and of 1,000,000 records (10,000
// organizations, the caller's holding every tenth record, the others a few dozen each, all interleaved
// in time), the first page and a deep one, on SQLite and PostgreSQL, in process, as a member of the
// organization. Beside them, the same page of a non-tenant entity of the same size (what the
// membership read costs a request), that read alone, and `me` on the same domain with and without
// organizations. Rows are written straight with SQL, as in list-scale.mjs; every request goes
// through `auth.handle`. Each turn also takes the CPU time per request: this process's, and on
// PostgreSQL that of the database's own backends (read from /proc when the server is on this
// machine), steadier than the rate on a shared machine. The plans of the page queries
// (`RecordLists.sqlOf`) are read with EXPLAIN on the instance's own connection.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAuth } from "@domain-auth/core";
import { validateDomainText } from "@domain-auth/core/config";
import Sqlite from "better-sqlite3";
import { CompiledQuery } from "kysely";
import pg from "pg";
import { PASSWORD, SECRET } from "./in-process.mjs";
import { postgresDatabase } from "./list-scale.mjs";
import { alternate, closedLoop } from "./load.mjs";
import { median } from "./stats.mjs";

/** Where PostgreSQL is: `BENCH_POSTGRES_URL`, else the local server as `postgres`. */
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** When the first filled record was made; each next one a millisecond later. */
const START = Date.UTC(2025, 0, 1);
const ORGANIZATIONS = "domain_auth_organizations";
const MEMBERSHIPS = "domain_auth_memberships";
/** The organization the caller pages through, and a small one of the same table the caller also belongs to. */
const MEASURED = "org-00000";
const TYPICAL = "org-00001";

/**
 * The bench's domain: `Project` a tenant entity, `Note` a record of the same shape that belongs to
 * no organization (read by any role, so both lists check the caller's token), and the users. Without
 * organizations: the same domain less `auth.organizations` and the tenant entity (`me` before them).
 */
function domainText(organizations) {
  return `name: tenants
entities:
  User:
    fields:
      email: { type: string, required: true, unique: true }
      password: { type: string, required: true }
      role: { type: string, default: Reader }
  Note:
    fields:
      title: { type: string, required: true, maxLength: 200 }
    permissions: { create: [Admin], read: [Reader, Admin], update: [Admin], delete: [Admin] }
${
  organizations
    ? `  Project:
    tenant: true
    fields:
      title: { type: string, required: true, maxLength: 200 }
    permissions: { create: ["@Member"], read: ["@Member"], update: ["@Member"], delete: ["@Member(Owner)"] }
`
    : ""
}auth:
  type: jwt
  entity: User
  roles: [Admin, Reader]
${organizations ? "  organizations:\n    roles: [Owner, Member]\n" : ""}`;
}

function domainOf(organizations) {
  const validation = validateDomainText(domainText(organizations));
  if (validation.errorCount > 0 || !validation.model)
    throw new Error(`tenant bench: the domain is invalid: ${JSON.stringify(validation.diagnostics)}`);
  return validation.model;
}

/** The `createdAt` and id of the `i`-th filled record of a table, as the fill writes them. */
const positionOf = (prefix, i) => ({ createdAt: new Date(START + i).toISOString(), id: `${prefix}-${String(i).padStart(8, "0")}` });
const cursorOf = (position) => Buffer.from(JSON.stringify([position.createdAt, position.id]), "utf8").toString("base64url");

/**
 * Where each filled project goes: the `i`-th to the measured organization when `i % share` is 0,
 * else to one of the other `organizations − 1` in turn (`1 + i % (organizations − 1)`), so the
 * organizations' records are interleaved in time as they would be in a shared table.
 */
function organizationIndexOf(i, { organizations, share }) {
  return i % share === 0 ? 0 : 1 + (i % Math.max(organizations - 1, 1));
}

/** The indexes of the filled projects of organization `index`, in the collection's order. */
function projectsOf(index, shape) {
  const found = [];
  for (let i = 0; i < shape.records; i++) if (organizationIndexOf(i, shape) === index) found.push(i);
  return found;
}

function fillSqlite(file, shape, callerId) {
  const db = new Sqlite(file);
  const instant = (i) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${START} + ${i}) / 1000.0, 'unixepoch')`;
  const numbers = "with recursive n(i) as (select 0 union all select i + 1 from n where i < ?)";
  try {
    db.transaction(() => {
      db.prepare(
        `${numbers} insert into ${ORGANIZATIONS} (id, name, slug, createdAt, updatedAt)
         select printf('org-%05d', i), 'Organization ' || i, printf('org-%05d', i), ${instant(0)}, ${instant(0)} from n`,
      ).run(shape.organizations - 1);
      // Every organization has its first member; the caller is a member of the measured one and of a small one.
      db.prepare(
        `${numbers} insert into ${MEMBERSHIPS} (organizationId, userId, role, createdAt)
         select printf('org-%05d', i), printf('owner-%05d', i), 'Owner', ${instant(0)} from n`,
      ).run(shape.organizations - 1);
      const join = db.prepare(`insert into ${MEMBERSHIPS} (organizationId, userId, role, createdAt) values (?, ?, 'Member', ?)`);
      for (const organization of shape.organizations > 1 ? [MEASURED, TYPICAL] : [MEASURED])
        join.run(organization, callerId, new Date(START).toISOString());
      db.prepare(
        `${numbers} insert into project (id, createdAt, updatedAt, title, organizationId)
         select printf('bulk-%08d', i), ${instant("i")}, ${instant("i")}, 'Project ' || i,
           case when i % ? = 0 then 'org-00000' else printf('org-%05d', 1 + i % ?) end
         from n`,
      ).run(shape.records - 1, shape.share, Math.max(shape.organizations - 1, 1));
      db.prepare(
        `${numbers} insert into note (id, createdAt, updatedAt, title)
         select printf('note-%08d', i), ${instant("i")}, ${instant("i")}, 'Note ' || i from n`,
      ).run(shape.notes - 1);
    })();
    db.exec("analyze");
  } finally {
    db.close();
  }
}

async function fillPostgres(url, shape, callerId) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const instant = (i) => `to_char(to_timestamp((${START} + ${i}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const org = (i) => `'org-' || lpad((${i})::text, 5, '0')`;
  try {
    await client.query("begin");
    await client.query(
      `insert into ${ORGANIZATIONS} ("id", "name", "slug", "createdAt", "updatedAt")
       select ${org("i")}, 'Organization ' || i, ${org("i")}, ${instant(0)}, ${instant(0)} from generate_series(0, $1::int) as i`,
      [shape.organizations - 1],
    );
    await client.query(
      `insert into ${MEMBERSHIPS} ("organizationId", "userId", "role", "createdAt")
       select ${org("i")}, 'owner-' || lpad(i::text, 5, '0'), 'Owner', ${instant(0)} from generate_series(0, $1::int) as i`,
      [shape.organizations - 1],
    );
    for (const organization of shape.organizations > 1 ? [MEASURED, TYPICAL] : [MEASURED]) {
      await client.query(`insert into ${MEMBERSHIPS} ("organizationId", "userId", "role", "createdAt") values ($1, $2, 'Member', $3)`, [
        organization,
        callerId,
        new Date(START).toISOString(),
      ]);
    }
    await client.query(
      `insert into project ("id", "createdAt", "updatedAt", "title", "organizationId")
       select 'bulk-' || lpad(i::text, 8, '0'), ${instant("i")}, ${instant("i")}, 'Project ' || i,
         case when i % $2::int = 0 then 'org-00000' else ${org("1 + i % $3::int")} end
       from generate_series(0, $1::int) as i`,
      [shape.records - 1, shape.share, Math.max(shape.organizations - 1, 1)],
    );
    await client.query(
      `insert into note ("id", "createdAt", "updatedAt", "title")
       select 'note-' || lpad(i::text, 8, '0'), ${instant("i")}, ${instant("i")}, 'Note ' || i from generate_series(0, $1::int) as i`,
      [shape.notes - 1],
    );
    await client.query("commit");
    // What autovacuum leaves after a bulk load: statistics, and the visibility map that lets a count read the index alone.
    await client.query(`vacuum analyze ${ORGANIZATIONS}, ${MEMBERSHIPS}, project, note`);
  } finally {
    await client.end();
  }
}

/** Clock ticks per second, the unit of the CPU times in /proc. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The CPU time (ms) each backend of the PostgreSQL database `name` has used so far, by process id;
 * `null` when the server is not on this machine or its processes cannot be read.
 */
async function backendCpu(client, name) {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(POSTGRES_ADMIN_URL).hostname)) return null;
  const { rows } = await client.query("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
  const found = new Map();
  for (const { pid } of rows) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch (error) {
      // A backend that ended since (the pool lets idle connections go) has nothing more to count.
      if (error.code === "ENOENT") continue;
      return null;
    }
    if (!stat.includes("(postgres)")) return null;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    found.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
  }
  return found;
}

const jsonPost = (url, body) =>
  new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** An instance of the domain (with or without organizations) on its own database, and a signed-in caller. */
async function signedInInstance(dir, dialect, name, organizations) {
  const postgres = dialect === "postgres" ? await postgresDatabase(`tenants_${name}`) : null;
  if (dialect === "postgres" && !postgres) return null;
  const file = join(dir, `tenants-${dialect}-${name}.db`);
  let auth;
  let user;
  let token;
  try {
    auth = await createAuth({
      domain: domainOf(organizations),
      database: postgres ? postgres.url : `file:${file}`,
      secret: SECRET,
      bcryptCost: 4,
      // In-process callers have no address: one for all, so the instance does not warn about it.
      clientAddress: () => "127.0.0.1",
    });
    const email = `caller-${name}@bench.test`;
    const registered = await auth.handle(jsonPost("http://localhost/api/user/register", { email, password: PASSWORD }));
    if (registered.status !== 201) throw new Error(`tenant bench: register answered ${registered.status}`);
    ({ user } = await registered.json());
    const login = await auth.handle(jsonPost("http://localhost/api/user/login", { email, password: PASSWORD }));
    if (login.status !== 200) throw new Error(`tenant bench: login answered ${login.status}`);
    ({ token } = await login.json());
  } catch (error) {
    await auth?.close();
    await postgres?.drop();
    throw error;
  }
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path) => {
    const response = await auth.handle(new Request(`http://localhost${path}`, { headers }));
    return { status: response.status, body: await response.json() };
  };
  const me = async () => (await get("/api/user/me")).status === 200;
  // A connection of its own to ask which backends serve the instance (it is left out of them).
  const watcher = postgres ? new pg.Client({ connectionString: postgres.url }) : null;
  await watcher?.connect();
  const databaseCpu = async () => (watcher ? backendCpu(watcher, postgres.name) : null);
  const close = async () => {
    await watcher?.end();
    await auth.close();
    await postgres?.drop();
  };
  return { auth, file, postgres, callerId: user.id, get, me, databaseCpu, close };
}

/** The SQL of the caller's membership read, built as `OrganizationStore` builds it (organizations joined with memberships by primary key). */
function membershipSql(database, callerId) {
  return database.db
    .selectFrom(`${ORGANIZATIONS} as o`)
    .leftJoin(`${MEMBERSHIPS} as m`, (join) => join.onRef("m.organizationId", "=", "o.id").on("m.userId", "=", callerId))
    .select(["o.id as id", "m.role as role"])
    .where("o.id", "=", MEASURED)
    .compile();
}

/** Runs a compiled read as the core's `selectRows` does: its prepared statement on SQLite, kysely on PostgreSQL. */
async function rowsOf(database, compiled) {
  if (database.dialect === "sqlite") return database.rows.all(compiled.sql, compiled.parameters);
  return (await database.db.executeQuery(compiled)).rows;
}

/** The plan of `sql` with `parameters` on the instance's own connection, one line per node. */
async function planOf(database, sql, parameters) {
  if (database.dialect === "sqlite") {
    return database.client
      .prepare(`explain query plan ${sql}`)
      .all(...parameters)
      .map((row) => row.detail)
      .join("\n");
  }
  const { rows } = await database.client.query(`explain (analyze, buffers, costs off, timing off, summary off) ${sql}`, parameters);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

/** A plan reads one index range of `index` when it names it and neither scans the table nor sorts. */
export function readsOneRange(plan, index) {
  return new RegExp(`\\b${index}\\b`).test(plan) && !/\bSCAN project\b|TEMP B-TREE|Seq Scan|\bSort\b/i.test(plan);
}

/**
 * The tenant instance of one size: `shape.records` projects over `shape.organizations`
 * organizations (the caller's holding every `shape.share`-th), `shape.notes` notes, the caller a
 * member of the measured organization (and of a small one when there are others). Its pages, each
 * resolving to `true` on a full page of 20; `check` compares every page with the records the fill wrote.
 */
async function tenantInstance(dir, dialect, name, shape) {
  const instance = await signedInInstance(dir, dialect, name, true);
  if (!instance) return null;
  try {
    if (instance.postgres) await fillPostgres(instance.postgres.url, shape, instance.callerId);
    else fillSqlite(instance.file, shape, instance.callerId);
  } catch (error) {
    await instance.close();
    throw error;
  }
  const { auth, get } = instance;
  // The instance's own database and list SQL (private in TypeScript; the core's tests read them the same way).
  const database = auth.tools.store.database;
  const lists = auth.tools.store.lists;
  const project = auth.model.entities.find((entity) => entity.name === "Project");
  /** For each list: its path, the ids in its order (as filled) and a deep cursor (after 90 %, a full page left). */
  const listOf = (path, prefix, indexes) => {
    const deepAt = Math.min(Math.floor(indexes.length * 0.9), indexes.length - 21);
    return { path, prefix, indexes, deepAt, after: positionOf(prefix, indexes[deepAt]) };
  };
  const notes = Array.from({ length: shape.notes }, (_, i) => i);
  const targets = {
    tenant: listOf(`/api/orgs/${MEASURED}/project`, "bulk", projectsOf(0, shape)),
    plain: listOf("/api/note", "note", notes),
    ...(shape.organizations > 1 ? { typical: listOf(`/api/orgs/${TYPICAL}/project`, "bulk", projectsOf(1, shape)) } : {}),
  };
  const query = (target, page) => (page === "first" ? "limit=20" : `limit=20&after=${cursorOf(target.after)}`);
  const pages = {};
  for (const [kind, target] of Object.entries(targets)) {
    for (const page of ["first", "deep"]) {
      const path = `${target.path}?${query(target, page)}`;
      pages[`${kind}:${page}`] = async () => {
        const answer = await get(path);
        return answer.status === 200 && answer.body.items.length === 20;
      };
    }
  }
  const access = membershipSql(database, instance.callerId);
  pages.read = async () => (await rowsOf(database, access))[0]?.role === "Member";
  // The control of "at most one more indexed read": the non-tenant request, then the membership read.
  const plainFirst = pages["plain:first"];
  pages["plainRead:first"] = async () => (await plainFirst()) && (await pages.read());
  // The statements of a first page alone, on the instance's connection: the page and its capped count, tenant and not.
  const note = auth.model.entities.find((entity) => entity.name === "Note");
  for (const [kind, entity, scope] of [
    ["tenant", project, [MEASURED]],
    ["plain", note, []],
  ]) {
    const text = lists.sqlOf(entity, false, false);
    const page = CompiledQuery.raw(text.page, [...scope, 21, 0]);
    const count = CompiledQuery.raw(text.capped, [...scope, 10_001]);
    pages[`sql:${kind}:page`] = async () => (await rowsOf(database, page)).length === 21;
    pages[`sql:${kind}:count`] = async () => Number((await rowsOf(database, count))[0]?.total) > 0;
  }
  /** Every page holds the records the fill wrote there, in order, all of its organization's. */
  const check = async () => {
    const problems = [];
    for (const [kind, target] of Object.entries(targets)) {
      for (const page of ["first", "deep"]) {
        const answer = await get(`${target.path}?${query(target, page)}`);
        const from = page === "first" ? 0 : target.deepAt + 1;
        const expected = target.indexes.slice(from, from + 20).map((i) => positionOf(target.prefix, i).id);
        const items = answer.body.items ?? [];
        const organization = kind === "plain" ? undefined : kind === "tenant" ? MEASURED : TYPICAL;
        if (answer.status !== 200) problems.push(`${kind} ${page}: status ${answer.status}`);
        else if (JSON.stringify(items.map((item) => item.id)) !== JSON.stringify(expected))
          problems.push(`${kind} ${page}: ids ${items.map((item) => item.id).join(",")} instead of ${expected.join(",")}`);
        else if (organization && !items.every((item) => item.organizationId === organization))
          problems.push(`${kind} ${page}: a record of another organization`);
      }
    }
    if (!(await pages.read())) problems.push("the membership read found no membership");
    return problems;
  };
  /** The plans of the measured organization's pages, its capped count and the membership read. */
  const plans = async () => {
    const deep = targets.tenant.after;
    const first = lists.sqlOf(project, false, false);
    const after = lists.sqlOf(project, false, true);
    const page = async (sql, parameters) => {
      const plan = await planOf(database, sql, parameters);
      return { sql, plan, oneRange: readsOneRange(plan, "project__org_order") };
    };
    return {
      first: await page(first.page, [MEASURED, 21, 0]),
      deep: await page(after.page, [MEASURED, deep.createdAt, deep.id, 21]),
      count: { sql: first.capped, plan: await planOf(database, first.capped, [MEASURED, 10_001]) },
      membership: { sql: access.sql, plan: await planOf(database, access.sql, access.parameters) },
    };
  };
  return {
    auth,
    pages,
    me: instance.me,
    databaseCpu: instance.databaseCpu,
    check,
    plans,
    counts: Object.fromEntries(Object.entries(targets).map(([kind, target]) => [kind, target.indexes.length])),
    close: instance.close,
  };
}

/**
 * For each database: the small and the large tenant instance and the instance without
 * organizations; PostgreSQL is left out (and said so) when it cannot be reached. Each large
 * instance's pages are checked against the fill, and the plans of its page queries read.
 */
export async function createTenantScale(
  dir,
  { small = 1_000, large = 1_000_000, organizations = 10_000, share = 10, dialects = ["sqlite", "postgres"] } = {},
) {
  const shapes = {
    small: { records: small, organizations: 1, share: 1, notes: small },
    large: { records: large, organizations, share, notes: Math.ceil(large / share) },
  };
  const instances = {};
  const missing = [];
  const plans = {};
  const problems = [];
  const close = () => Promise.all(Object.values(instances).map((instance) => instance.close()));
  try {
    for (const dialect of dialects) {
      const smallInstance = await tenantInstance(dir, dialect, "small", shapes.small);
      if (!smallInstance) {
        missing.push(dialect);
        continue;
      }
      instances[`${dialect}:small`] = smallInstance;
      instances[`${dialect}:large`] = await tenantInstance(dir, dialect, "large", shapes.large);
      instances[`${dialect}:without`] = await signedInInstance(dir, dialect, "without", false);
      for (const size of ["small", "large"])
        problems.push(...(await instances[`${dialect}:${size}`].check()).map((p) => `${dialect} ${size}: ${p}`));
      plans[dialect] = { small: await instances[`${dialect}:small`].plans(), large: await instances[`${dialect}:large`].plans() };
    }
  } catch (error) {
    // Nothing left behind: the PostgreSQL databases made so far are dropped.
    await close();
    throw error;
  }
  const anyLarge = Object.entries(instances).find(([key]) => key.endsWith(":large"))?.[1];
  return {
    shapes,
    counts: anyLarge?.counts ?? { tenant: 0, plain: 0, typical: 0 },
    dialects: dialects.filter((dialect) => !missing.includes(dialect)),
    missing,
    instances,
    plans,
    problems,
    close,
  };
}

/**
 * The measured operations, by name: `<dialect>:<size>:<list>:<page>` (requests; `plainRead:first` the
 * non-tenant first page followed by the membership read), `<dialect>:<size>:sql:<list>:<page|count>` (a first page's
 * statements alone), `<dialect>:large:read` (the membership read alone), `<dialect>:small:me`, `<dialect>:without:me`.
 */
export function tenantTurns(scale) {
  const turns = [];
  for (const dialect of scale.dialects) {
    for (const size of ["small", "large"]) {
      const instance = scale.instances[`${dialect}:${size}`];
      for (const [name, operation] of Object.entries(instance.pages)) {
        // The read alone once (among the most memberships); above 10,000 records a list's count is made once per 10 s.
        if (name === "read" && size === "small") continue;
        if (name.endsWith(":count") && size === "large") continue;
        turns.push({ name: `${dialect}:${size}:${name}`, operation, instance });
      }
    }
    for (const key of ["small", "without"]) {
      const instance = scale.instances[`${dialect}:${key}`];
      turns.push({ name: `${dialect}:${key}:me`, operation: instance.me, instance });
    }
  }
  return turns;
}

/** The CPU time (ms) the database's backends used between two readings of `databaseCpu`; 0 on SQLite (it runs in this process). */
function backendDelta(before, after) {
  if (!before || !after) return 0;
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

/**
 * Every operation of {@link tenantTurns} from `callers` callers for `durationMs`, taking turns for
 * `rounds` rounds: the figures `npm run bench` reports as `results.tenants`. `results` holds the
 * operations per second, `cpu` the CPU milliseconds per operation (this process, and PostgreSQL's
 * backends when they can be read: `databaseCpu`).
 */
export async function measureTenantScale(scale, { rounds = 3, durationMs = 1000, callers = 10 } = {}) {
  const cpuSamples = {};
  let databaseCpu = true;
  const turns = tenantTurns(scale).map(({ name, operation, instance }) => ({
    name,
    measure: async () => {
      const databaseBefore = await instance.databaseCpu();
      const before = process.cpuUsage();
      const run = await closedLoop(operation, { concurrency: callers, durationMs });
      const used = process.cpuUsage(before);
      const databaseAfter = await instance.databaseCpu();
      if (name.startsWith("postgres:") && !(databaseBefore && databaseAfter)) databaseCpu = false;
      cpuSamples[name] ??= [];
      cpuSamples[name].push(((used.user + used.system) / 1000 + backendDelta(databaseBefore, databaseAfter)) / run.ops);
      return run.opsPerSecond;
    },
  }));
  // Warm-up: every operation briefly, so no first turn pays for compiling its code path.
  for (const { operation } of tenantTurns(scale))
    await closedLoop(operation, { concurrency: callers, durationMs: Math.min(200, durationMs) });
  const results = await alternate(turns, rounds);
  return {
    shapes: scale.shapes,
    counts: scale.counts,
    dialects: scale.dialects,
    missing: scale.missing,
    plans: scale.plans,
    problems: scale.problems,
    rounds,
    durationMs,
    callers,
    results,
    cpu: Object.fromEntries(Object.entries(cpuSamples).map(([name, samples]) => [name, { samples, median: median(samples) }])),
    databaseCpu,
  };
}
