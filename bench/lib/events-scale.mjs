// Security events at scale: the newest page of `GET events` among a few events and among many,
// in process, the two instances taking turns. Keyset paging should make the two cost the same.
import { join } from "node:path";
import { createAuth } from "@domain-auth/core";
import { loadDomain } from "@domain-auth/core/config";
import Sqlite from "better-sqlite3";
import { DOMAIN_FILE, PASSWORD, SECRET } from "./in-process.mjs";

const TYPES = ["login.succeeded", "login.failed", "logout", "session.revoked"];

/**
 * Fills the events table of the SQLite file `file` with `count` events as sign-ins of `users`
 * users leave them: `user-0`… in turn, 10 ms apart up to now (well inside the retention, so no purge takes
 * them during the run), ids in the log's order; then brings the statistics up to date.
 */
function fillEvents(file, count, users) {
  const start = Date.now() - count * 10 - 60_000;
  const db = new Sqlite(file);
  try {
    db.prepare(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i < ?)
       insert into domain_auth_events (id, at, type, userId, actorId, email, address, userAgent, sessionId, detail)
       select printf('%012x%08x00000000', ? + i * 10, i), ? + i * 10,
         json_extract(?, '$[' || (i % ${TYPES.length}) || ']'),
         'user-' || (i % ${users}), 'user-' || (i % ${users}), 'user' || (i % ${users}) || '@example.com',
         '192.0.2.1', 'Bench/1.0', null, '{"method":"password"}'
       from n`,
    ).run(count - 1, start, start, JSON.stringify(TYPES));
    db.exec("analyze");
  } finally {
    db.close();
  }
}

/** An instance on its own file with `count` events of `users` users, and its administrator's token. */
async function instanceWithEvents(dir, name, count, users) {
  const file = join(dir, `events-${name}.db`);
  const auth = await createAuth({ domain: await loadDomain(DOMAIN_FILE), database: `file:${file}`, secret: SECRET, bcryptCost: 4 });
  const setup = await auth.handle(
    new Request("http://localhost/api/user/setup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `admin-${name}@bench.test`, password: PASSWORD }),
    }),
  );
  if (setup.status !== 201) throw new Error(`events bench: setup answered ${setup.status}`);
  const { token } = await setup.json();
  fillEvents(file, count, users);
  /** `GET events` with `query`: resolves to `true` on a full page. */
  const page = (query) => async () => {
    const response = await auth.handle(
      new Request(`http://localhost/api/user/events?${query}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    const body = await response.json();
    return response.status === 200 && body.items.length === 50;
  };
  return { auth, everyone: page("limit=50"), oneUser: page("limit=50&userId=user-1") };
}

/**
 * Two instances for the newest page of everyone's and of one user's events: `few` events of two
 * users (a full page of each), and `many` of a hundred.
 */
export async function createEventScale(dir, { few = 100, many = 100_000 } = {}) {
  const small = await instanceWithEvents(dir, "few", few, 2);
  const large = await instanceWithEvents(dir, "many", many, 100);
  return {
    few,
    many,
    small,
    large,
    close: () => Promise.all([small.auth.close(), large.auth.close()]),
  };
}
