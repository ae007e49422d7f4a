import { availableParallelism } from "node:os";
import { type Account, signIn as logIn, setUpAdmin as setUp } from "@domain-auth/test-support/accounts";
import { type RunningApp, startApp } from "@domain-auth/test-support/app-server";
import { createPostgresDatabase } from "@domain-auth/test-support/databases";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { afterAll, describe, expect, test } from "vitest";
import { printFigures } from "./support/figures.js";
import { tally } from "./support/races.js";

/**
 * A register flood from one address against the production server, with the default settings
 * (`AUTH_REGISTER_LIMIT` 100 an hour, bcrypt cost 10, one hashing thread per core, 8 queued per
 * thread): what the hash queue cannot take is 503 UNAVAILABLE with Retry-After at once, and once
 * the address has had its 100 registrations the rest are 429; never a 500. `me` keeps answering
 * during the flood, and a legitimate sign-in gets through (after the Retry-After when it was shed).
 */

const FLOOD = 80;
const REGISTER_LIMIT = 100;
/** Hashes running or waiting at most, with the server's default of one thread per core and 8 queued per thread. */
const HASH_CAPACITY = 9 * availableParallelism();
const PASSWORD = "flood password 1";
const LEGITIMATE: Account = { email: "legitimate@example.com", password: "legitimate password 1" };

/** Milliseconds `work` took, with its result. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

/** Signs in, waiting as long as each 503 asks (at most 10 tries): every answer's status, and how long the first took. */
async function signInPolitely(url: string, account: Account): Promise<{ firstAnswerMs: number; statuses: number[] }> {
  const statuses: number[] = [];
  let firstAnswerMs = Number.NaN;
  for (let attempt = 0; attempt < 10; attempt++) {
    const { ms, result: answer } = await timed(() => call(url, { path: "/api/user/login", body: account }));
    if (attempt === 0) firstAnswerMs = ms;
    statuses.push(answer.status);
    if (answer.status !== 503) break;
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after")) * 1000));
  }
  return { firstAnswerMs, statuses };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function expectShed(answer: Answer): void {
  if (answer.status === 503) {
    expect((answer.body as { code: string }).code).toBe("UNAVAILABLE");
    expect(answer.headers.get("retry-after")).toBe("1");
  }
  if (answer.status === 429) {
    expect((answer.body as { code: string }).code).toBe("TOO_MANY_ATTEMPTS");
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  }
}

/** Fires `FLOOD` registrations at once; resolves when all are answered, `firstAnswer` on the first one. */
function flood(url: string, prefix: string): { answers: Promise<Answer[]>; firstAnswer: Promise<void> } {
  let answered: () => void = () => {};
  const firstAnswer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const answers = Promise.all(
    Array.from({ length: FLOOD }, (_, index) =>
      call(url, { path: "/api/user/register", body: { email: `${prefix}-${index}@example.com`, password: PASSWORD } }).then((answer) => {
        answered();
        return answer;
      }),
    ),
  );
  return { answers, firstAnswer };
}

/** The whole replay on one running server; prints its figures. */
async function replay(app: RunningApp, backend: string): Promise<void> {
  const admin = await setUp(app.url);
  expect((await call(app.url, { path: "/api/user/register", body: LEGITIMATE })).status).toBe(201);
  await logIn(app.url, LEGITIMATE); // warm-up
  const idleLogins: number[] = [];
  for (let index = 0; index < 3; index++) idleLogins.push((await timed(() => logIn(app.url, LEGITIMATE))).ms);
  const readMe = async (): Promise<number> => {
    const answer = await timed(() => call(app.url, { path: "/api/user/me", token: admin.token }));
    expect(answer.result.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return answer.ms;
  };
  const idleMe: number[] = [];
  for (let index = 0; index < 10; index++) idleMe.push(await readMe());

  // Wave one: within the hourly limit, so only the hash queue sheds load.
  const floodStarted = performance.now();
  const first = flood(app.url, `${backend}-first`);
  await first.firstAnswer;
  let flooding = true;
  let floodMs = Number.NaN;
  const firstAnswers = first.answers.finally(() => {
    flooding = false;
    floodMs = performance.now() - floodStarted;
  });
  const meDuring: number[] = [];
  const [signIn] = await Promise.all([
    timed(() => signInPolitely(app.url, LEGITIMATE)),
    (async () => {
      // `me` every 50 ms or so while the flood lasts (at least 5): a reader, not a second storm.
      while (flooding || meDuring.length < 5) meDuring.push(await readMe());
    })(),
  ]);
  const firstWave = await firstAnswers;
  const firstTally = tally(firstWave);
  for (const answer of firstWave) expectShed(answer);
  for (const status of Object.keys(firstTally)) expect(["201", "503"], JSON.stringify(firstTally)).toContain(status);
  expect(firstTally[201] ?? 0).toBeGreaterThan(0);
  if (FLOOD > 2 * HASH_CAPACITY) expect(firstTally[503] ?? 0).toBeGreaterThan(0);
  // `me` needs no hash, so it never waits for the flood to be hashed: each answer comes sooner than the
  // whole wave, which holds several rounds of hashing (on a slow machine as on a fast one).
  expect(Math.max(...meDuring)).toBeLessThan(floodMs);
  expect(signIn.result.statuses.at(-1)).toBe(200);

  // More waves until the address is past its hourly limit: registrations shed by the full queue
  // did not count, those let through did, so exactly the limit's worth get created in all.
  let created = 1 + (firstTally[201] ?? 0);
  let waves = 1;
  let lastTally: Record<number, number> = firstTally;
  while (waves < 12 && !lastTally[429]) {
    const answers = await flood(app.url, `${backend}-wave${++waves}`).answers;
    for (const answer of answers) expectShed(answer);
    lastTally = tally(answers);
    for (const status of Object.keys(lastTally)) expect(["201", "429", "503"], JSON.stringify(lastTally)).toContain(status);
    created += lastTally[201] ?? 0;
  }
  expect(lastTally[429]).toBeGreaterThan(0);
  expect(created).toBe(REGISTER_LIMIT);
  const refused = await call(app.url, { path: "/api/user/register", body: { email: `${backend}-late@example.com`, password: PASSWORD } });
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);

  printFigures(`register-flood.test.ts (${backend}, ${availableParallelism()} cores)`, {
    [`wave 1 (${FLOOD} at once) 201/429/503`]: `${firstTally[201] ?? 0}/${firstTally[429] ?? 0}/${firstTally[503] ?? 0}`,
    [`waves of ${FLOOD} until 429`]: waves,
    "last wave 201/429/503": `${lastTally[201] ?? 0}/${lastTally[429] ?? 0}/${lastTally[503] ?? 0}`,
    "accounts created from the address": created,
    "legitimate login idle (median of 3)": `${median(idleLogins).toFixed(0)} ms`,
    "legitimate login during wave 1": `${signIn.result.statuses.join(" → ")}, first answer in ${signIn.result.firstAnswerMs.toFixed(0)} ms, signed in after ${signIn.ms.toFixed(0)} ms`,
    [`me idle (median / max of ${idleMe.length})`]: `${median(idleMe).toFixed(0)} ms / ${Math.max(...idleMe).toFixed(0)} ms`,
    [`me during wave 1 (median / max of ${meDuring.length})`]: `${median(meDuring).toFixed(0)} ms / ${Math.max(...meDuring).toFixed(0)} ms`,
    "wave 1 answered in full": `${floodMs.toFixed(0)} ms`,
  });
}

describe("a register flood from one address, against the production server", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  test("SQLite: the hash queue sheds with 503, the limit with 429, never a 500; me and sign-in keep working", async () => {
    const app = await startApp();
    cleanups.push(() => app.stop());
    await replay(app, "SQLite");
  });

  test("PostgreSQL: the same", async () => {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const app = await startApp({ env: { DATABASE_URL: database.url } });
    cleanups.push(() => app.stop());
    await replay(app, "PostgreSQL");
  });
});
