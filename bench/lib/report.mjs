// Turns the results of one run into the printed tables and docs/benchmarks.md.
import { formatMs, formatNumber, formatRatio } from "./stats.mjs";

const ops = (value) => formatNumber(value, value < 100 ? 1 : 0);
const pct = (value) => `${Math.round(value * 100)} %`;
const cpuMs = (value) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : "–");

function table(headers, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** What the server's own event loop says about a storm phase against idle. */
function loopNote(phase, idle, met) {
  if (phase.eventLoopP99 === undefined) return "";
  const loop = ` The server's event loop delay: p99 ${formatMs(phase.eventLoopP99)} during the storm, ${formatMs(idle.eventLoopP99)} idle.`;
  if (met) return loop;
  return phase.eventLoopP99 <= 2 * Math.max(idle.eventLoopP99, 1)
    ? `${loop} Missed in this run, but not inside the server: its loop stayed about as free as when idle, so the extra tail is time the client and the server spent waiting for one of the two cores shared with the storm and with the other processes of this machine (see the p99 of each turn).`
    : `${loop} Missed in this run, and the server's loop was held up too.`;
}

/**
 * What sessions cost `me`, from one run: the handler's time per call (one thread, CPU-bound), and
 * that time with the session-and-user read swapped for the user read `me` made before sessions.
 */
export function sessionsEffect(r) {
  const handlerMs = 1000 / r.inProcess.me.ours.median;
  const beforeMs = handlerMs - (r.floor.sessionReadMs - r.floor.readMs);
  return { handlerMs, beforeMs, ratio: beforeMs / handlerMs };
}

/**
 * The login figures of one run: the library the core ran, its limit and capacity (the native
 * bcrypt's when the core ran it), and the bcryptjs ones, all measured in the login turns.
 */
export function loginFigures(r) {
  const login = r.inProcess.login;
  const native = r.hash.library === "bcrypt" && login.limitNative !== undefined;
  return {
    library: native ? "the native bcrypt" : "bcryptjs",
    logins: login.ours.median,
    bcryptjsLogins: login.oursBcryptjs?.median,
    limit: (native ? login.limitNative : login.limit).median,
    capacity: (native ? login.capacityNative : login.capacity).median,
    bcryptjsLimit: login.limit.median,
    bcryptjsCapacity: login.capacity.median,
  };
}

/** The two login targets: against the limit of the library in use, and against the bcryptjs limit. */
export function loginTargets(r) {
  const f = loginFigures(r);
  const cores = r.machine.cores;
  const ratio = f.logins / f.limit;
  const vsCapacity = f.logins / f.capacity;
  const vsBcryptjs = f.logins / f.bcryptjsLimit;
  const fallback =
    f.bcryptjsLogins === undefined
      ? ""
      : ` The same core forced onto bcryptjs (\`AUTH_BCRYPT_LIBRARY=bcryptjs\`, same turns): ${ops(f.bcryptjsLogins)} logins/s, ${formatRatio(f.bcryptjsLogins / f.bcryptjsLimit)} its limit, so the library alone makes logins ${formatRatio(f.logins / f.bcryptjsLogins)} faster.`;
  return [
    {
      measure: "login throughput vs the limit of the bcrypt in use (cores / one comparison)",
      target: "≥ 0.9×",
      value: ratio,
      met: ratio >= 0.9,
      why:
        `${ops(f.logins)} logins/s with ${f.library} against a limit of ${ops(f.limit)}/s (${cores} cores / one comparison with it, measured in the same turns). ` +
        `What ${cores} threads comparing back to back with nothing else to do actually got from the machine in those turns: ${ops(f.capacity)}/s, so logins reach ${pct(vsCapacity)} of the capacity that was there.` +
        (ratio >= 0.9
          ? ""
          : vsCapacity >= 0.8
            ? " The gap to the limit is the machine, not the login path: a single comparison on an otherwise idle core is faster than what all cores deliver at once while other processes share them."
            : " Part of the gap is the login path itself (database work and the token on the main thread, and hashing threads yielding to request handling)."),
    },
    {
      measure: "login throughput vs the bcryptjs limit of this machine (cores / one bcryptjs comparison)",
      target: "≥ 1.3×",
      value: vsBcryptjs,
      met: vsBcryptjs >= 1.3,
      why:
        `${ops(f.logins)} logins/s with ${f.library} against ${ops(f.bcryptjsLimit)}/s, what bcryptjs allows at most here (capacity of ${cores} threads comparing with bcryptjs in the same turns: ${ops(f.bcryptjsCapacity)}/s). ` +
        "The login's cost is one bcrypt comparison at cost " +
        `${r.hash.cost}; the native bcrypt makes the same comparison of the same hash in ${r.hash.nativeCompareMs ? formatMs(r.hash.nativeCompareMs) : "–"} against ${formatMs(r.hash.bcryptCompareMs)} for bcryptjs.` +
        fallback,
    },
  ];
}

/** The rows of the limits table about hashing: each library's hash, comparison, login limit and capacity, and the logins against them. */
export function hashLimitRows(r) {
  const login = r.inProcess.login;
  const f = loginFigures(r);
  const turns = (figure) => `${ops(figure.median)}/s (turns: ${figure.samples.map(ops).join(", ")})`;
  const rows = [
    [`One bcrypt hash, cost ${r.hash.cost} (bcryptjs, one thread, median of 7)`, formatMs(r.hash.bcryptHashMs)],
    [`One bcrypt comparison, cost ${r.hash.cost} (bcryptjs)`, formatMs(r.hash.bcryptCompareMs)],
  ];
  if (r.hash.nativeCompareMs) {
    rows.push(
      [`One bcrypt hash, cost ${r.hash.cost} (the native bcrypt, one thread, median of 7)`, formatMs(r.hash.nativeHashMs)],
      [`One bcrypt comparison, cost ${r.hash.cost} (the native bcrypt)`, formatMs(r.hash.nativeCompareMs)],
    );
  }
  rows.push(
    ["One scrypt with Better Auth's parameters (N=16384, r=16, p=1)", formatMs(r.hash.scryptMs)],
    ["Login limit with bcryptjs: cores / one comparison (median of the turns above, measured between the logins)", turns(login.limit)],
    [`Hashing capacity with bcryptjs: ${r.machine.cores} threads comparing back to back, nothing else (same turns)`, turns(login.capacity)],
  );
  if (login.limitNative) {
    rows.push(
      ["Login limit with the native bcrypt: cores / one comparison (same turns)", turns(login.limitNative)],
      [
        `Hashing capacity with the native bcrypt: ${r.machine.cores} threads comparing back to back (same turns)`,
        turns(login.capacityNative),
      ],
    );
  }
  rows.push([
    `domain-auth login in process with ${f.library} (${r.settings.callers} callers, same turns)`,
    `${ops(f.logins)}/s: ${formatRatio(f.logins / f.limit)} its limit, ${formatRatio(f.logins / f.capacity)} its capacity, ${formatRatio(f.logins / f.bcryptjsLimit)} the bcryptjs limit`,
  ]);
  if (login.oursBcryptjs) {
    rows.push([
      `domain-auth login in process with bcryptjs (forced; same turns)`,
      `${ops(login.oursBcryptjs.median)}/s: ${formatRatio(login.oursBcryptjs.median / f.bcryptjsLimit)} the bcryptjs limit, ${formatRatio(login.oursBcryptjs.median / f.bcryptjsCapacity)} its capacity`,
    ]);
  }
  return rows;
}

/**
 * The login rows alone (`node bench/login.mjs`): the two login targets, the in-process logins
 * against Better Auth, and the hashing limits, from a run of the login turns only.
 */
export function renderLoginRows(r) {
  const login = r.inProcess.login;
  const versus = (figure) => [ops(figure.median), ops(login.theirs.median), formatRatio(figure.median / login.theirs.median)];
  return [
    table(
      ["Measure", "Target", "This run", "Met", "Why"],
      loginTargets(r).map((t) => [t.measure, t.target, formatRatio(t.value), t.met ? "yes" : "**no**", t.why]),
    ),
    "",
    table(
      ["domain-auth", "Better Auth", "domain-auth ops/s", "Better Auth ops/s", "Ratio"],
      [
        ["`login`", "sign-in/email", ...versus(login.ours)],
        ["`login` on bcryptjs (`AUTH_BCRYPT_LIBRARY=bcryptjs`)", "sign-in/email", ...versus(login.oursBcryptjs)],
      ],
    ),
    "",
    `Per-turn ops/s: ${Object.entries(login)
      .map(([name, figure]) => `${name} ${figure.samples.map(ops).join(", ")}`)
      .join("; ")}.`,
    "",
    table(["Measure", "Value"], hashLimitRows(r)),
  ].join("\n");
}

/** The targets, each with its figure, whether it is met, and why. */
export function evaluateTargets(r) {
  const inProc = r.inProcess;
  const meRatio = inProc.me.ours.median / inProc.me.theirs.median;
  const next = r.http.next;
  const bare = r.http.bare;
  const ba = r.http.betterAuth;
  const idle = r.latency.idle;
  const wizardRatio = r.startup.wizardFirstPrompt.median / r.startup.t3FirstPrompt.median;
  const list = [];

  list.push({
    measure: "`me` in-process ops/s vs Better Auth get-session (bearer)",
    target: "≥ 15×",
    value: meRatio,
    met: meRatio >= 15,
    why:
      `\`me\` is one HS256 verify and one read by primary key of the token's session with its user (${formatMs(r.floor.floorMs)} together, each measured alone in the same turns), ` +
      `so the handler, ${r.settings.callers} callers at a time, runs at ${pct(inProc.me.ours.median / inProc.me.floor.median)} of that floor's rate (measured in the same turns); ` +
      `Better Auth's get-session goes through its endpoint router, before/after hooks (the bearer plugin turns the token into a cookie and verifies its HMAC), cookie parsing and a session read plus a user read.` +
      (meRatio >= 15
        ? ""
        : ` Missed in this run: both are called with a Web \`Request\` and read back as a Web \`Response\` with a body, which Node.js 20's undici makes with a body stream each (tens of microseconds, paid by both sides); the handler's own work is the rest.`),
  });

  const sessionsCost = sessionsEffect(r);
  list.push({
    measure: "`me` after sessions vs before (one run: the token check's session-and-user read against the user read it replaced)",
    target: "≥ 0.9×",
    value: sessionsCost.ratio,
    met: sessionsCost.ratio >= 0.9,
    why:
      `Sessions changed one thing on \`me\`'s path: the token check reads the session and its user together (one join by primary key, ${formatMs(r.floor.sessionReadMs)}) where it read the user alone (${formatMs(r.floor.readMs)}), both measured in the same turns. ` +
      `The handler took ${formatMs(sessionsCost.handlerMs)} of one thread per \`me\` (${ops(inProc.me.ours.median)}/s); with the user read in place of the join it would take ${formatMs(sessionsCost.beforeMs)}, ${sessionsCost.ratio >= 1 ? "so sessions cost `me` nothing measurable" : `so sessions cost \`me\` ${pct(1 - sessionsCost.ratio)} of its rate`} ` +
      `(the floors alone: ${formatMs(r.floor.floorBeforeMs)} before, ${formatMs(r.floor.floorMs)} after). An older build of the core cannot run in the same process, so this swaps the one read instead of the whole core.`,
  });

  const trivial = r.http.nextTrivial;
  const viaHandler = r.http.nextHandler;
  if (next && ba) {
    const ratio = next.median / ba.median;
    list.push({
      measure: "`me` over HTTP via the web app (`server.mjs` with Next.js) vs Better Auth get-session on bare node:http",
      target: "≥ 1.8×",
      value: ratio,
      met: ratio >= 1.8,
      why:
        `The web app's server answers API requests that nothing of the project's own claims with auth-core directly, before Next.js: ${cpuMs(next.cpuMsPerRequest)} of CPU per \`me\` (the bare server: ${cpuMs(bare.cpuMsPerRequest)}); Better Auth's bare server spends ${cpuMs(ba.cpuMsPerRequest)} per get-session.` +
        (viaHandler
          ? ` The same \`me\` by way of Next.js's route handler: ${ops(viaHandler.median)}/s at ${cpuMs(viaHandler.cpuMsPerRequest)}, ${formatRatio(viaHandler.median / ba.median)} of Better Auth.`
          : ""),
    });
  }
  if (next && trivial) {
    const ratio = next.median / trivial.median;
    list.push({
      measure: "`me` over HTTP via the web app vs a trivial Next.js route handler (a constant JSON) in the same server",
      target: "≥ 0.9×",
      value: ratio,
      met: ratio >= 0.9,
      why:
        `${ops(next.median)} \`me\`/s against ${ops(trivial.median)} answers/s of a route handler that returns a constant (${cpuMs(next.cpuMsPerRequest)} against ${cpuMs(trivial.cpuMsPerRequest)} of CPU per request): Next.js's request handling costs more than the whole of \`me\`, so \`server.mjs\` hands API requests to auth-core before it.` +
        (viaHandler
          ? ` Through a Next.js route handler (\`/api/bench-me\`, a route of the project's own, which \`server.mjs\` leaves to Next.js) \`me\` runs at ${ops(viaHandler.median)}/s, ${formatRatio(viaHandler.median / trivial.median)} the trivial route (${cpuMs(viaHandler.cpuMsPerRequest)} per request).`
          : ""),
    });
  }

  if (r.http.floor) {
    const ratio = bare.median / r.http.floor.median;
    list.push({
      measure: "`me` on bare node:http vs the floor (node:http, HS256 with node:crypto, one prepared read, JSON out)",
      target: "≥ 0.6×",
      value: ratio,
      met: ratio >= 0.6,
      why:
        `The bare server spends ${cpuMs(bare.cpuMsPerRequest)} of CPU per \`me\`, the hand-written floor (\`bench/servers/floor-http.mjs\`, same database, same token, same answer) ${cpuMs(r.http.floor.cpuMsPerRequest)}. ` +
        "What the core adds to the same HMAC and read: the JWT library's decoding and claim checks, routing, the wider row (every column of the user, the session's columns a renewal needs) and its conversion, the serializer, and promise hops; see \"Profiles and changes\" below.",
    });
  }
  if (r.http.bareCookie) {
    const ratio = bare.median / r.http.bareCookie.median;
    list.push({
      measure: "`me` with the access cookie vs with the bearer header, bare node:http (cost of the cookie: ≤ 1.1×)",
      target: "≤ 1.1×",
      value: ratio,
      met: ratio <= 1.1,
      why: `${ops(r.http.bareCookie.median)} \`me\`/s with \`Cookie: theme=dark; domain-auth.token=…\` against ${ops(bare.median)} with \`Authorization: Bearer …\` (${cpuMs(r.http.bareCookie.cpuMsPerRequest)} against ${cpuMs(bare.cpuMsPerRequest)} of CPU per request): the cookie header is parsed once per request by the \`cookie\` library.`,
    });
  }
  if (r.http.bareApiKey) {
    const ratio = bare.median / r.http.bareApiKey.median;
    list.push({
      measure: "`me` with an API key vs with a token, bare node:http (cost of the key: ≤ 1.25×)",
      target: "≤ 1.25×",
      value: ratio,
      met: ratio <= 1.25,
      why: `${ops(r.http.bareApiKey.median)} \`me\`/s with \`Authorization: Bearer da_…\` against ${ops(bare.median)} with the token (${cpuMs(r.http.bareApiKey.cpuMsPerRequest)} against ${cpuMs(bare.cpuMsPerRequest)} of CPU per request): a SHA-256 of the key and one read by its hash of the key with its user, instead of an HS256 verify and one read by the session id.`,
    });
  }
  if (r.http.baseline) {
    const ratio = bare.median / r.http.baseline.median;
    list.push({
      measure: "`me` on bare node:http vs the core as it was before this round's changes (the build named by `--baseline`, same turns)",
      target: "≥ 2×",
      value: ratio,
      met: ratio >= 2,
      why: `${ops(bare.median)} against ${ops(r.http.baseline.median)} \`me\`/s (${cpuMs(bare.cpuMsPerRequest)} against ${cpuMs(r.http.baseline.cpuMsPerRequest)} of CPU per request, ${formatRatio(r.http.baseline.cpuMsPerRequest / bare.cpuMsPerRequest)} less work); the baseline: \`${r.baseline}\`.`,
    });
  }
  if (r.refresh?.list) {
    const refreshRatio = r.refresh.refresh.median / r.refresh.me.median;
    list.push({
      measure: "`refresh` (no hash) on bare node:http vs `me`",
      target: "≥ 0.5×",
      value: refreshRatio,
      met: refreshRatio >= 0.5,
      why:
        `${ops(r.refresh.refresh.median)} refreshes/s against ${ops(r.refresh.me.median)} \`me\`/s on the same server, taking turns (${cpuMs(r.refresh.refresh.cpuMsPerRequest)} against ${cpuMs(r.refresh.me.cpuMsPerRequest)} of CPU per request). ` +
        "A refresh is a read, a write and a signature: its rotation is one conditional `UPDATE` committed with `synchronous = FULL` before the answer leaves, rotations arriving together sharing one commit (one fsync); then a token is signed, the new refresh token drawn and hashed, and the user serialized." +
        (refreshRatio >= 0.5
          ? ""
          : " Missed: with 10 callers a group holds at most 10 rotations, so its fsync still costs each refresh about what a whole `me` costs, and the rest of a refresh is about twice a `me`'s work; an acknowledged refresh surviving a power cut is kept."),
    });
    const listRatio = r.refresh.list.median / r.refresh.me.median;
    list.push({
      measure: "entity list (`GET /api/post?limit=20`, 20 records) on bare node:http vs `me`",
      target: "≥ 0.5×",
      value: listRatio,
      met: listRatio >= 0.5,
      why:
        `${ops(r.refresh.list.median)} lists/s against ${ops(r.refresh.me.median)} \`me\`/s, taking turns (${cpuMs(r.refresh.list.cpuMsPerRequest)} against ${cpuMs(r.refresh.me.cpuMsPerRequest)} of CPU per request): the same token check, then a page of 20 rows and their count, 20 records serialized into a 4 KiB answer.` +
        (listRatio >= 0.5
          ? ""
          : " Missed: the list is `me`'s work plus twenty records' read, conversion and JSON; it got faster with `me` (see \"Profiles and changes\"), but `me` got faster still."),
    });
  }

  const loginP99 = r.latency.login.p99 / idle.p99;
  list.push({
    measure: "`me` p99 while logins saturate hashing vs idle p99",
    target: "≤ 2×",
    value: loginP99,
    met: loginP99 <= 2,
    why:
      `Idle p99 ${formatMs(idle.p99)}, during the login storm ${formatMs(r.latency.login.p99)} (p50 ${formatMs(idle.p50)} → ${formatMs(r.latency.login.p50)}) at ${r.settings.latency.rate} \`me\`/s; ` +
      `the storm completed ${ops(r.latency.login.stormPerSecond)} logins/s. Hashing runs on worker threads at a lower CPU priority than the thread answering requests.` +
      loopNote(r.latency.login, idle, loginP99 <= 2),
  });
  const registerP99 = r.latency.register.p99 / idle.p99;
  const baStorm = r.latency.betterAuthSignUp;
  list.push({
    measure: "`me` p99 during a register storm vs idle p99",
    target: "≤ 2×",
    value: registerP99,
    met: registerP99 <= 2,
    why:
      `During the storm ${formatMs(r.latency.register.p99)} against ${formatMs(idle.p99)} idle (${ops(r.latency.register.stormPerSecond)} registers/s): the password is hashed before the write transaction opens, so no database lock is held while hashing.` +
      loopNote(r.latency.register, idle, registerP99 <= 2) +
      ` For comparison, Better Auth hashes inside its sign-up transaction (\`runWithTransaction\` in its sign-up route), which on SQLite holds its one connection, so its get-session during a sign-up storm: ${baStorm.answeredPerSecond > 0 ? `p99 ${formatMs(baStorm.p99)} against ${formatMs(r.latency.betterAuthIdle.p99)} idle` : `no answer at all within the ${r.settings.latency.seconds} s window (idle p99 ${formatMs(r.latency.betterAuthIdle.p99)})`}.`,
  });
  for (const [phase, callers] of [
    [r.latency.register, r.settings.latency.stormConnections],
    [r.latency.registerFlood, r.settings.latency.floodConnections],
  ]) {
    if (!phase) continue;
    const ratio = phase.p99 / idle.p99;
    list.push({
      measure: `\`me\` p99 during a register flood of ${callers} callers (bounded hash queue) vs idle`,
      target: "≤ 1.5×",
      value: ratio,
      met: ratio <= 1.5,
      why:
        `${formatMs(phase.p99)} against ${formatMs(idle.p99)} idle; ${ops(phase.stormPerSecond)} accounts/s created${phase.stormShedPerSecond ? `, ${ops(phase.stormShedPerSecond)} registrations/s refused with 503` : ""}.` +
        (callers > r.settings.latency.stormConnections
          ? ` Every refused registration is still a request the one event loop reads and answers: the same ${callers} callers asking for \`me\` itself ${r.latency.meFlood.answeredPerSecond > 0 ? `make \`me\`'s p99 ${formatRatio(r.latency.meFlood.p99 / idle.p99)} idle` : `left no measured \`me\` answered within the ${r.settings.latency.seconds} s window`}. Missed by design: a full hash queue answers 503 at once rather than make callers wait, so callers that ignore \`Retry-After\` keep the loop busy; holding them (a queue with a deadline) would meet this target and break that rule. A limit per connection or per address in the proxy in front bounds such a flood. See "A register flood" below.`
          : loopNote(phase, idle, ratio <= 1.5)),
    });
  }
  list.push(...loginTargets(r));
  list.push({
    measure: "wizard time to first prompt vs create-t3-app",
    target: "≤ 0.5×",
    value: wizardRatio,
    met: wizardRatio <= 0.5,
    why: `${formatMs(r.startup.wizardFirstPrompt.median)} against ${formatMs(r.startup.t3FirstPrompt.median)}, both in a pseudo-terminal until the first question is drawn; a Node.js process that prints one line takes ${formatMs(r.startup.nodeFloor.median)} here. The wizard ships one bundle and loads its validation code while the first question is on screen.`,
  });
  if (r.lists) {
    const worst = listScaleWorst(r.lists);
    list.push({
      measure: `A page of 20 from ${r.lists.largest.toLocaleString("en")} records vs from ${r.lists.smallest.toLocaleString("en")} (cost ratio, worst of ${r.lists.dialects.join(" and ")}, first page and a deep \`after\` page)`,
      target: "≤ 2×",
      value: worst.ratio,
      met: worst.ratio <= 2,
      why: `Keyset paging reads one range of the \`(createdAt, id)\` index however deep the page, and a list known to hold more than 10,000 records is not counted again for 10 s (its \`total\` is left out, as docs/api.md#lists allows), so neither the page nor the count grows with the table. The worst: ${worst.label}.`,
    });
  }
  if (r.tenants) list.push(...tenantTargets(r.tenants));
  return list;
}

const DIALECT_NAMES = { sqlite: "SQLite", postgres: "PostgreSQL" };
const PAGE_NAMES = { first: "first page", deep: "a deep page (`after` the 90 % mark)" };
const microseconds = (ms) => (Number.isFinite(ms) ? `${Math.round(ms * 1000).toLocaleString("en")} µs` : "–");

/**
 * The figures of the tenant rows (bench/lib/tenant-scale.mjs), each with its rate (operations per
 * second, median of the turns) and its CPU time per operation (median; on PostgreSQL with the
 * database's backends): each page of an organization of the large table against the same page of
 * the small one; each page of the tenant entity against the same page of the non-tenant one (and a
 * first page against the non-tenant one followed by one membership read), with the statements of a
 * first page alone; `me` with organizations against without.
 */
export function tenantFigures(t) {
  const of = (key) => ({ rate: t.results[key]?.median ?? Number.NaN, cpuMs: t.cpu?.[key]?.median ?? Number.NaN });
  const scale = [];
  const versus = [];
  const statements = [];
  const me = [];
  for (const dialect of t.dialects) {
    const read = of(`${dialect}:large:read`);
    for (const page of ["first", "deep"]) {
      const small = of(`${dialect}:small:tenant:${page}`);
      for (const [list, key] of [
        ["measured", "tenant"],
        ["typical", "typical"],
      ]) {
        const large = of(`${dialect}:large:${key}:${page}`);
        scale.push({ dialect, page, list, small, large, timeRatio: small.rate / large.rate, cpuRatio: large.cpuMs / small.cpuMs });
      }
      for (const size of ["small", "large"]) {
        const plain = of(`${dialect}:${size}:plain:${page}`);
        const tenant = of(`${dialect}:${size}:tenant:${page}`);
        // The control: the same non-tenant request followed by one membership read (first pages only).
        const control = page === "first" ? of(`${dialect}:${size}:plainRead:first`) : null;
        versus.push({
          dialect,
          page,
          size,
          plain,
          tenant,
          control,
          timeRatio: plain.rate / tenant.rate,
          cpuRatio: tenant.cpuMs / plain.cpuMs,
          extraMs: tenant.cpuMs - plain.cpuMs,
          read,
          controlRatio: control ? tenant.cpuMs / control.cpuMs : Number.NaN,
        });
      }
    }
    for (const size of ["small", "large"]) {
      const statement = (list, kind) => of(`${dialect}:${size}:sql:${list}:${kind}`);
      const records = size === "small" ? t.shapes.small.records : t.counts.tenant;
      // Above 10,000 records a first page is not counted again for 10 s: its count is left out of what it adds.
      const counted = records <= 10_000 && Number.isFinite(statement("tenant", "count").cpuMs);
      const page = { plain: statement("plain", "page"), tenant: statement("tenant", "page") };
      const count = { plain: statement("plain", "count"), tenant: statement("tenant", "count") };
      const request = versus.find((row) => row.size === size && row.page === "first" && row.dialect === dialect);
      statements.push({
        dialect,
        size,
        records,
        counted,
        page,
        count,
        read,
        addedMs: page.tenant.cpuMs - page.plain.cpuMs + (counted ? count.tenant.cpuMs - count.plain.cpuMs : 0) + read.cpuMs,
        extraMs: request?.extraMs ?? Number.NaN,
      });
    }
    const withOrganizations = of(`${dialect}:small:me`);
    const without = of(`${dialect}:without:me`);
    me.push({
      dialect,
      with: withOrganizations,
      without,
      timeRatio: without.rate / withOrganizations.rate,
      cpuRatio: withOrganizations.cpuMs / without.cpuMs,
    });
  }
  const worst = (rows, value) => rows.reduce((found, row) => (found === null || value(row) > value(found) ? row : found), null);
  return {
    scale,
    versus,
    statements,
    me,
    worstScale: worst(scale, (row) => row.cpuRatio),
    worstVersus: worst(
      versus.filter((row) => row.control),
      (row) => row.controlRatio,
    ),
    worstMe: worst(me, (row) => row.cpuRatio),
  };
}

/** The sizes of the tenant rows, in words. */
function tenantSizes(t) {
  const n = (value) => value.toLocaleString("en");
  return {
    small: n(t.shapes.small.records),
    large: n(t.shapes.large.records),
    organizations: n(t.shapes.large.organizations),
    measured: n(t.counts.tenant),
    typical: n(t.counts.typical),
    notes: n(t.shapes.large.notes),
  };
}

/** Whether every page plan of the large table reads one range of `project__org_order` (no scan of the table, no sort). */
export function tenantPlansRead(t) {
  return t.dialects.every((dialect) => ["first", "deep"].every((page) => t.plans[dialect]?.large?.[page]?.oneRange === true));
}

/** What CPU time per request covers in this run. */
const cpuScope = (t) =>
  t.dialects.includes("postgres")
    ? t.databaseCpu
      ? "this process's CPU time, with the PostgreSQL backends' on PostgreSQL"
      : "this process's CPU time only (the PostgreSQL backends could not be read, so PostgreSQL's own work is left out)"
    : "this process's CPU time";

/** The three targets of the tenant rows, on CPU time per request (steadier than the rate on a shared machine). */
export function tenantTargets(t) {
  const f = tenantFigures(t);
  const z = tenantSizes(t);
  const out = [];
  if (f.worstScale) {
    const w = f.worstScale;
    const plansRead = tenantPlansRead(t);
    const timeWorst = Math.max(...f.scale.map((row) => row.timeRatio));
    out.push({
      measure: `A page of 20 of one organization's records from a tenant table of ${z.large} (${z.organizations} organizations) vs from ${z.small} (CPU per request, worst of ${t.dialects.join(" and ")}, first page and a deep \`after\` page, the caller's organization of ${z.measured} and a small one of ${z.typical})`,
      target: "≤ 2×",
      value: w.cpuRatio,
      met: w.cpuRatio <= 2 && plansRead,
      why:
        `A tenant list reads one range of the \`(organizationId, createdAt, id)\` index (\`project__org_order\`) however many organizations share the table and however deep the page, ${plansRead ? "as the plans below show on both databases" : "**but a plan below does not**"}; a list of more than 10,000 records is not counted again for 10 s. ` +
        `The worst: ${DIALECT_NAMES[w.dialect]}, ${PAGE_NAMES[w.page]}, ${w.list === "measured" ? "the caller's organization" : "a small organization"}: ${microseconds(w.large.cpuMs)} against ${microseconds(w.small.cpuMs)}. By the rate (pages/s) the worst ratio is ${formatRatio(timeWorst)}.`,
    });
  }
  if (f.worstVersus) {
    const w = f.worstVersus;
    const records = w.size === "small" ? z.small : z.measured;
    const statements = f.statements.find((row) => row.dialect === w.dialect && row.size === w.size);
    out.push({
      measure:
        "A first page of 20 of a tenant entity vs the same page of a non-tenant entity of the same size followed by one membership read (CPU per request, worst of both databases and both sizes)",
      target: "≤ 1.1×",
      value: w.controlRatio,
      met: w.controlRatio <= 1.1,
      why:
        "A request to a tenant entity with a session makes no read more than the same request to another entity: the token check's one read (the session and its user) also joins the organization and the caller's membership by primary key; with an API key, or anonymously, that join is one read more (`OrganizationStore.access`). The control is the non-tenant request with that read made after it (≤ 1.1×: at most one read more, within this machine's noise). " +
        `The worst: ${DIALECT_NAMES[w.dialect]}, ${records} records: ${microseconds(w.tenant.cpuMs)} of CPU per tenant request against ${microseconds(w.control.cpuMs)} for the control (the non-tenant request alone ${microseconds(w.plain.cpuMs)}, the read alone ${microseconds(w.read.cpuMs)}).` +
        (w.controlRatio <= 1.1 || !statements
          ? ""
          : ` Missed: the tenant request's other reads cost more than the non-tenant ones, over a wider index and wider rows: its page ${microseconds(statements.page.tenant.cpuMs)} against ${microseconds(statements.page.plain.cpuMs)}${statements.counted ? `, and its count (made on every page of a list of at most 10,000) walks \`(organizationId, createdAt, id)\` where the non-tenant count walks the narrow primary-key index: ${microseconds(statements.count.tenant.cpuMs)} against ${microseconds(statements.count.plain.cpuMs)}` : ""} (the statements alone, below).`),
    });
  }
  if (f.worstMe) {
    const w = f.worstMe;
    out.push({
      measure: "`me` on a domain with organizations vs the same domain without them (CPU per request, worst of both databases)",
      target: "≤ 1.1×",
      value: w.cpuRatio,
      met: w.cpuRatio <= 1.1,
      why: `\`me\` reads no organization: the same token check and session read either way. ${f.me.map((row) => `${DIALECT_NAMES[row.dialect]}: ${microseconds(row.with.cpuMs)} with organizations against ${microseconds(row.without.cpuMs)} without (${ops(row.with.rate)} against ${ops(row.without.rate)} \`me\`/s)`).join("; ")}.`,
    });
  }
  return out;
}

/** The two sections of the tenant rows: lists at scale (with their plans), and tenant against plain with `me`. */
export function tenantSections(t, callers) {
  const f = tenantFigures(t);
  const z = tenantSizes(t);
  const dialectPage = (row) => `${DIALECT_NAMES[row.dialect]}, ${PAGE_NAMES[row.page]}`;
  const plans = t.dialects.flatMap((dialect) =>
    ["first", "deep", "count", "membership"].map((query) => {
      const found = t.plans[dialect]?.large?.[query];
      const label = { first: "first page", deep: "deep page", count: "capped count", membership: "membership read" }[query];
      return found ? `-- ${DIALECT_NAMES[dialect]}, ${label}: ${found.sql}\n${found.plan}` : "";
    }),
  );
  const scaleRows = f.scale.flatMap((row) => [
    ...(row.list === "measured"
      ? [[dialectPage(row), `${z.small} records, one organization`, ops(row.small.rate), microseconds(row.small.cpuMs), "1×", "1×"]]
      : []),
    [
      dialectPage(row),
      row.list === "measured"
        ? `${z.large} records, ${z.organizations} organizations: the caller's (${z.measured})`
        : `the same table: a small organization (${z.typical})`,
      ops(row.large.rate),
      microseconds(row.large.cpuMs),
      formatRatio(row.timeRatio),
      formatRatio(row.cpuRatio),
    ],
  ]);
  const scaleSection = {
    title: `Tenant lists at scale: a page of 20 of one organization's projects (in process, ${callers} callers)`,
    body: [
      table(["Page", "Organization", "pages/s", "CPU per request", "Cost vs 1,000 (time)", "Cost vs 1,000 (CPU)"], scaleRows),
      "",
      `Medians of ${t.rounds} turns of ${t.durationMs / 1000} s, every page of this section and the next taking turns. Each request is \`GET /api/orgs/<orgId>/project?limit=20\` (and \`&after=\` a cursor 90 % into the organization's records) with the token of a member: the token check, the membership read, the page, and the capped count when due. ` +
        `The ${z.large} records are interleaved in time: every tenth is the caller's organization's, the others go round the other organizations (about ${z.typical} each); organizations, memberships (one owner each, and the caller) and records are written with SQL, then \`ANALYZE\` (SQLite) or \`VACUUM ANALYZE\` (PostgreSQL, what autovacuum leaves). ` +
        `Cost vs 1,000: the time (1 / pages/s) and the CPU per request (${cpuScope(t)}) against the same page among ${z.small} records; ≤ 2× is the target. Every page was checked to hold the records written there, in order, all of its organization.` +
        `${t.problems.length > 0 ? ` **Problems: ${t.problems.join("; ")}.**` : ""}${t.missing.length > 0 ? ` Left out: ${t.missing.join(", ")} (not reachable).` : ""}`,
      "",
      `The plans of the caller's organization's queries in the ${z.large}-record table (\`RecordLists.sqlOf\` and \`OrganizationStore.access\`), read on the instance's own connection: \`EXPLAIN QUERY PLAN\` on SQLite, \`EXPLAIN (ANALYZE, BUFFERS)\` on PostgreSQL:`,
      "",
      "```",
      ...plans.filter(Boolean),
      "```",
    ].join("\n"),
  };
  const versusSection = {
    title: `Tenant list vs plain list, and \`me\` with and without organizations (in process, ${callers} callers, same turns)`,
    body: [
      table(
        [
          "Page",
          "Non-tenant (`/api/note`): pages/s, CPU per request",
          "Tenant (`/api/orgs/<orgId>/project`): pages/s, CPU per request",
          "Cost tenant / non-tenant (time, CPU)",
          "Extra CPU per request",
          "Non-tenant, then one membership read: CPU per request",
          "Tenant / that (CPU)",
        ],
        f.versus.map((row) => [
          `${dialectPage(row)}, ${row.size === "small" ? z.small : z.measured} records`,
          `${ops(row.plain.rate)}, ${microseconds(row.plain.cpuMs)}`,
          `${ops(row.tenant.rate)}, ${microseconds(row.tenant.cpuMs)}`,
          `${formatRatio(row.timeRatio)}, ${formatRatio(row.cpuRatio)}`,
          microseconds(row.extraMs),
          row.control ? microseconds(row.control.cpuMs) : "–",
          row.control ? formatRatio(row.controlRatio) : "–",
        ]),
      ),
      "",
      table(
        [
          "First page's statements alone (CPU per call)",
          "Page: non-tenant, tenant",
          "Capped count: non-tenant, tenant",
          "Membership read",
          "What they add to a tenant request",
          "Extra CPU per request (above)",
        ],
        f.statements.map((row) => [
          `${DIALECT_NAMES[row.dialect]}, ${row.records.toLocaleString("en")} records${row.records > 10_000 ? " (counted once per 10 s: left out)" : ""}`,
          `${microseconds(row.page.plain.cpuMs)}, ${microseconds(row.page.tenant.cpuMs)}`,
          row.counted ? `${microseconds(row.count.plain.cpuMs)}, ${microseconds(row.count.tenant.cpuMs)}` : "–",
          microseconds(row.read.cpuMs),
          microseconds(row.addedMs),
          microseconds(row.extraMs),
        ]),
      ),
      "",
      table(
        [
          "`GET me`",
          "Without organizations: ops/s, CPU per request",
          "With organizations: ops/s, CPU per request",
          "Cost with / without (time, CPU)",
        ],
        f.me.map((row) => [
          DIALECT_NAMES[row.dialect],
          `${ops(row.without.rate)}, ${microseconds(row.without.cpuMs)}`,
          `${ops(row.with.rate)}, ${microseconds(row.with.cpuMs)}`,
          `${formatRatio(row.timeRatio)}, ${formatRatio(row.cpuRatio)}`,
        ]),
      ),
      "",
      `The same caller pages through ${z.small} notes and ${z.small} projects of its organization (the small instance), and through ${z.notes} notes and its organization's ${z.measured} projects among ${z.large} (the large one): the tenant request's token check reads the membership in the same statement as the session and its user. ` +
        `CPU per request is ${cpuScope(t)}, over each turn divided by its requests. The control, "non-tenant, then one membership read", is the non-tenant request followed by the membership read's SQL (\`OrganizationStore.access\`) on the instance's connection: a tenant request costs at most one more indexed read when it costs no more than that. ` +
        "The statements of a first page alone (`RecordLists.sqlOf`: the page, and the count up to 10,001 a list of at most 10,000 records makes on every page) run the same way: what they add to a tenant request is the page's and the count's difference plus the membership read. " +
        "`me` runs on the small instance and on an instance of the same domain less `auth.organizations` and the tenant entity.",
    ].join("\n"),
  };
  return [scaleSection, versusSection];
}

/** The tenant rows alone (\`node bench/tenants.mjs\`): their targets and sections, in Markdown. */
export function renderTenantRows(t, callers) {
  return [
    table(
      ["Measure", "Target", "This run", "Met", "Why"],
      tenantTargets(t).map((row) => [row.measure, row.target, formatRatio(row.value), row.met ? "yes" : "**no**", row.why]),
    ),
    "",
    ...tenantSections(t, callers).map((section) => `## ${section.title}\n\n${section.body}\n`),
  ].join("\n");
}

/** The rows of the refined lists: each page, and the default order's page it is set against (the same size and database). */
const QUERY_ROWS = [
  { page: "first", label: "default order, first page", against: null },
  { page: "search", label: "`q=release` (1 % of the posts), first page", against: "first" },
  { page: "sort", label: "`sort=title`, first page", against: "first" },
  { page: "filter", label: "`where.status=review` (25 %), first page", against: "first" },
  { page: "deep", label: "default order, `after` the 90 % mark", against: null },
  { page: "sortDeep", label: "`sort=title`, `after` the 90 % mark of that order", against: "deep" },
];

/** The refined lists' section (bench/lib/list-scale.mjs with `queries`): pages/s and the cost against the default order's page. */
export function listQuerySection(q, callers) {
  const cell = (dialect, size, page) => q.results[`${dialect}:${size}:${page}`]?.median;
  const rows = q.dialects.flatMap((dialect) =>
    QUERY_ROWS.map(({ page, label, against }) => [
      `${DIALECT_NAMES[dialect]}, ${label}`,
      ...q.sizes.flatMap((size) => [
        ops(cell(dialect, size, page)),
        against ? formatRatio(cell(dialect, size, against) / cell(dialect, size, page)) : "baseline",
      ]),
    ]),
  );
  return {
    title: `Lists with search, sort and filters: a page of 20 posts beside the default order (in process, ${callers} callers)`,
    body: [
      table(["Page", ...q.sizes.flatMap((size) => [`${size.toLocaleString("en")} posts, pages/s`, "Cost vs default order"])], rows),
      "",
      `Medians of ${q.rounds} turns, every size, database and page taking turns, as an anonymous reader; the cost is the default order's pages/s over the row's, the same size and database (2× costs twice as much). ` +
        "One title in a hundred holds the word searched for, each `status` a quarter of the posts; the default order reads one range of its `(createdAt, id)` index, the others have none. " +
        `${q.missing.length > 0 ? `Left out: ${q.missing.join(", ")} (not reachable).` : ""}`,
    ].join("\n"),
  };
}

/** The refined lists' rows alone (\`node bench/lists.mjs\`), in Markdown. */
export function renderListQueryRows(q, callers) {
  const section = listQuerySection(q, callers);
  return `## ${section.title}\n\n${section.body}\n`;
}

/** The largest cost ratio of a page at the largest size against the smallest, over databases and kinds of page. */
export function listScaleWorst(lists) {
  let worst = { ratio: 0, label: "none" };
  for (const dialect of lists.dialects) {
    for (const page of ["first", "deep"]) {
      const small = lists.results[`${dialect}:${lists.smallest}:${page}`]?.median;
      const large = lists.results[`${dialect}:${lists.largest}:${page}`]?.median;
      if (!small || !large) continue;
      const ratio = small / large;
      if (ratio > worst.ratio) worst = { ratio, label: `${dialect}, ${page} page` };
    }
  }
  return worst;
}

/** The register flood rows of the latency phases, and what they say. */
function floodSection(r) {
  const s = r.settings.latency;
  const l = r.latency;
  const row = (label, phase) => [
    label,
    formatMs(phase.p50),
    formatMs(phase.p99),
    formatRatio(phase.p99 / l.idle.p99),
    phase.eventLoopP99 === undefined ? "–" : formatMs(phase.eventLoopP99),
    `${ops(phase.stormPerSecond)}/s`,
    phase.stormShedPerSecond === undefined ? "–" : `${ops(phase.stormShedPerSecond)}/s`,
  ];
  const flood = l.registerFlood;
  return [
    table(
      ["Storm", "`me` p50", "`me` p99", "p99 vs idle", "Server event loop p99", "Answered 2xx", "Shed: 503 at once"],
      [
        ["none (idle)", formatMs(l.idle.p50), formatMs(l.idle.p99), "1×", formatMs(l.idle.eventLoopP99), "–", "–"],
        row(`${s.stormConnections} callers registering`, l.register),
        row(`${s.floodConnections} callers registering`, flood),
        row(`${s.floodConnections} callers calling \`me\` (control)`, l.meFlood),
      ],
    ),
    "",
    `Figures of the latency turns above. Password hashing takes ${r.machine.cores} at a time here (one thread per core) and keeps 8 per thread waiting; a registration that finds that queue full is answered 503 \`UNAVAILABLE\` with \`Retry-After: 1\` at once, before its body is read. ` +
      `With ${s.stormConnections} callers ${l.register.stormShedPerSecond > 0 ? `the queue shed ${ops(l.register.stormShedPerSecond)} registrations a second` : "the queue takes every registration"} and \`me\`'s p99 is ${formatRatio(l.register.p99 / l.idle.p99)} idle. ` +
      `With ${s.floodConnections} the queue is full all the time and ${ops(flood.stormShedPerSecond)} registrations a second are refused, each caller sending its next one the moment it is answered (none honours \`Retry-After\`). ` +
      `No \`me\` waits for a hash; it waits for the server's one event loop, busy reading and refusing those requests: \`me\`'s p99 is ${formatRatio(flood.p99 / l.idle.p99)} idle, ` +
      `where the same ${s.floodConnections} callers asking for \`me\` itself (the control row, answered 200 at ${ops(l.meFlood.stormPerSecond)}/s) make it ${formatRatio(l.meFlood.p99 / l.idle.p99)}. ` +
      "A flood that ignores `Retry-After` is a flood of cheap requests like any other; what the application guarantees is that it makes no request wait for hashing and writes nothing to the database per refused request. Capping requests per connection or per address in the proxy in front is what bounds its rate. " +
      `Here the refusals, the load generator and the hashing threads (which yield to request handling) share two cores, so hashing got little CPU during the flood: ${ops(flood.stormPerSecond)} accounts a second were created, against ${ops(l.register.stormPerSecond)} with ${s.stormConnections} callers. ` +
      "The queue stayed full, so a legitimate sign-in in the meantime was answered 503 to be retried after a second rather than made to wait behind the flood (`test/hardening/register-flood.test.ts` times one).",
  ].join("\n");
}

function sections(r) {
  const s = r.settings;
  const inProc = r.inProcess;
  const out = [];
  const targets = evaluateTargets(r);
  out.push({
    title: "Targets",
    body: table(
      ["Measure", "Target", "This run", "Met", "Why"],
      targets.map((t) => [t.measure, t.target, formatRatio(t.value), t.met ? "yes" : "**no**", t.why]),
    ),
  });

  const nativeRun = r.hash.library === "bcrypt" && r.hash.nativeCompareMs;
  const hashNote = (operation) =>
    operation === "me"
      ? "none"
      : operation === "loginBcryptjs" || !nativeRun
        ? `bcryptjs cost ${r.hash.cost} (${formatMs(r.hash.bcryptCompareMs)}) vs scrypt N=16384 r=16 (${formatMs(r.hash.scryptMs)})`
        : `native bcrypt cost ${r.hash.cost} (${formatMs(r.hash.nativeCompareMs)}) vs scrypt N=16384 r=16 (${formatMs(r.hash.scryptMs)})`;
  const inProcessRow = (ours, theirs, key) => {
    const mine = key === "loginBcryptjs" ? inProc.login.oursBcryptjs : inProc[key].ours;
    const other = inProc[key === "loginBcryptjs" ? "login" : key].theirs;
    return [ours, theirs, ops(mine.median), ops(other.median), formatRatio(mine.median / other.median), hashNote(key)];
  };
  out.push({
    title: `In process: handlers called with Web Requests (${s.callers} concurrent callers)`,
    body: [
      table(
        ["domain-auth", "Better Auth", "domain-auth ops/s", "Better Auth ops/s", "Ratio", "Hash per call"],
        [
          ["`me`", "get-session (bearer)", "me"],
          ["`login`", "sign-in/email", "login"],
          ...(inProc.login.oursBcryptjs
            ? [["`login` on bcryptjs (`AUTH_BCRYPT_LIBRARY=bcryptjs`)", "sign-in/email", "loginBcryptjs"]]
            : []),
          ["`register`", "sign-up/email", "register"],
        ].map(([ours, theirs, key]) => inProcessRow(ours, theirs, key)),
      ),
      "",
      `Medians of ${s.inProcess.rounds} turns each (${s.inProcess.meMs / 1000} s for \`me\`, ${s.inProcess.hashingMs / 1000} s for the hashing operations), the contenders taking turns. ` +
        "Per-turn ops/s: " +
        ["me", "login", "register"]
          .map((key) => `${key} ${inProc[key].ours.samples.map(ops).join(", ")} vs ${inProc[key].theirs.samples.map(ops).join(", ")}`)
          .join("; ") +
        (inProc.login.oursBcryptjs ? `; login on bcryptjs ${inProc.login.oursBcryptjs.samples.map(ops).join(", ")}` : "") +
        ".",
    ].join("\n"),
  });

  if (r.lists) {
    const l = r.lists;
    const rows = l.dialects.flatMap((dialect) =>
      ["first", "deep"].map((page) => [
        `${dialect === "sqlite" ? "SQLite" : "PostgreSQL"}, ${page === "first" ? "first page" : "a deep page (`after` the 90 % mark)"}`,
        ...l.sizes.map((size) => ops(l.results[`${dialect}:${size}:${page}`].median)),
        formatRatio(l.results[`${dialect}:${l.smallest}:${page}`].median / l.results[`${dialect}:${l.largest}:${page}`].median),
      ]),
    );
    out.push({
      title: `Lists at scale: a page of 20 posts (in process, ${s.callers} callers)`,
      body: [
        table(
          [
            "Page",
            ...l.sizes.map((size) => `${size.toLocaleString("en")} posts, pages/s`),
            `Cost at ${l.largest.toLocaleString("en")} / at ${l.smallest.toLocaleString("en")}`,
          ],
          rows,
        ),
        "",
        `Medians of ${l.rounds} turns, every size and page taking turns; \`GET /api/post?limit=20\` (and \`&after=\` a cursor 90 % in) as an anonymous reader. ${l.missing.length > 0 ? `Left out: ${l.missing.join(", ")} (not reachable).` : ""}`,
      ].join("\n"),
    });
  }
  if (r.listQueries) {
    out.push(listQuerySection(r.listQueries, s.callers));
  }

  if (r.tenants) out.push(...tenantSections(r.tenants, s.callers));

  if (r.events) {
    const e = r.events;
    const row = (label, few, many) => [label, ops(e[few].median), ops(e[many].median), formatRatio(e[many].median / e[few].median)];
    out.push({
      title: `Security events at scale: the newest page of \`GET events\` (in process, ${s.callers} callers, 50 to a page)`,
      body: [
        table(
          [
            "Page",
            `Among ${e.few.toLocaleString("en")} events, pages/s`,
            `Among ${e.many.toLocaleString("en")} events, pages/s`,
            "Many / few",
          ],
          [row("Everyone's (the setup role)", "everyoneFew", "everyoneMany"), row("One user's", "oneUserFew", "oneUserMany")],
        ),
        "",
        `Medians of ${s.inProcess.rounds} turns, the four taking turns; the events as sign-ins leave them, ${e.few.toLocaleString("en")} of two users and ${e.many.toLocaleString("en")} of a hundred (every page full). Keyset paging on \`(at, id)\` reads one index range whatever the table holds: a ratio near 1× is the target.`,
      ].join("\n"),
    });
  }

  if (r.http) {
    const rows = [
      ["`me` through the web app (`apps/web/server.mjs`: the API answered before Next.js)", "next"],
      ["`me` through the web app by way of a Next.js route handler (`/api/bench-me`, handing `me` to the same instance)", "nextHandler"],
      ["A trivial Next.js route handler (a constant JSON) on the same server", "nextTrivial"],
      ["`me`, the same handler on bare node:http", "bare"],
      ["`me` with the access cookie instead of the bearer header, bare node:http", "bareCookie"],
      ["`me` with an API key instead of a token, bare node:http", "bareApiKey"],
      ["`me` on bare node:http, the core before this round's changes (`--baseline`)", "baseline"],
      ["`me` floor: hand-written node:http, HS256 with node:crypto, one prepared read (`bench/servers/floor-http.mjs`)", "floor"],
      ["Better Auth get-session on bare node:http (`toNodeHandler`)", "betterAuth"],
    ].filter(([, key]) => r.http[key]);
    out.push({
      title: `Over HTTP: autocannon on the loopback (${s.http.connections} connections, ${s.http.seconds} s per turn)`,
      body: [
        table(
          ["Server", "req/s (median)", "Per turn", "p99", "Server CPU per request"],
          rows.map(([label, key]) => [
            label,
            ops(r.http[key].median),
            r.http[key].samples.map(ops).join(", "),
            formatMs(r.http[key].p99),
            cpuMs(r.http[key].cpuMsPerRequest),
          ]),
        ),
        "",
        "Each server is its own process on the same 2 cores as autocannon. CPU per request is the server process's user + system time over the turn divided by its answers (all its threads).",
      ].join("\n"),
    });
  }

  if (r.refresh) {
    const rf = r.refresh;
    out.push({
      title: `Refresh and the entity list over HTTP: the bare node:http server (${s.http.connections} connections, ${s.http.seconds} s per turn)`,
      body: [
        table(
          ["Request", "req/s (median)", "Per turn", "p99", "Server CPU per request", "Failed"],
          [
            ["`POST refresh` (rotation: a new token pair per request)", rf.refresh],
            ["`GET /api/post?limit=20` (20 records)", rf.list],
            ["`GET me` (same server, same turns)", rf.me],
          ]
            .filter(([, row]) => row)
            .map(([label, row]) => [
              label,
              ops(row.median),
              row.samples.map(ops).join(", "),
              formatMs(row.p99),
              cpuMs(row.cpuMsPerRequest),
              String(row.failures),
            ]),
        ),
        "",
        `A refresh reads the session and its user by the SHA-256 of the refresh token, rotates it with one conditional \`UPDATE\` (a write on SQLite), and signs a new access token; it never hashes a password. ` +
          `Each connection signs in once before its turn (those logins are not timed) and then spends its own chain of refresh tokens, each request presenting the token the previous answer gave it. ` +
          `Refresh ran at ${formatRatio(rf.refresh.median / rf.me.median)} of \`me\`'s rate on the same server.`,
      ].join("\n"),
    });
  }

  if (r.latency) {
    const l = r.latency;
    const row = (label, phase, base) => [
      label,
      formatMs(phase.p50),
      phase.answeredPerSecond > 0 ? formatMs(phase.p99) : `none answered in ${s.latency.seconds} s`,
      phase.p99PerTurn.map((value) => (value === null || !Number.isFinite(value) ? "–" : value.toFixed(1))).join(", "),
      base ? (phase.answeredPerSecond > 0 ? formatRatio(phase.p99 / base.p99) : "–") : "1×",
      phase.eventLoopP99 === undefined ? "–" : `${formatMs(phase.eventLoopP99)} / ${formatMs(phase.eventLoopMax)}`,
      phase.stormPerSecond === undefined
        ? "–"
        : `${ops(phase.stormPerSecond)}/s${phase.stormShedPerSecond ? `, ${ops(phase.stormShedPerSecond)}/s shed with 503` : ""}${phase.stormFailures ? ` (${phase.stormFailures} failed)` : ""}`,
    ];
    out.push({
      title: `Latency under load: \`me\` at a steady rate while a second client storms`,
      body: [
        table(
          ["Phase", "p50", "p99", "p99 per turn (ms)", "p99 vs idle", "Server event loop delay p99 / max", "Storm completed"],
          [
            row("domain-auth (bare node:http), idle", l.idle),
            row(`domain-auth, ${s.latency.stormConnections} callers logging in`, l.login, l.idle),
            row(`domain-auth, ${s.latency.stormConnections} callers registering`, l.register, l.idle),
            row(`domain-auth, ${s.latency.floodConnections} callers registering (a flood)`, l.registerFlood, l.idle),
            row(`domain-auth, ${s.latency.floodConnections} callers calling \`me\` (control)`, l.meFlood, l.idle),
            row("Better Auth get-session, idle", l.betterAuthIdle),
            row(`Better Auth get-session, ${s.latency.stormConnections} callers signing up`, l.betterAuthSignUp, l.betterAuthIdle),
          ],
        ),
        "",
        `\`me\` comes from ${s.latency.connections} connections at ${s.latency.rate} requests per second in all (autocannon's rate limit; get-session at ${s.latency.betterAuthRate}/s, a load Better Auth's server carries comfortably when idle), ${s.latency.seconds} s per turn, medians of ${s.latency.rounds} turns, the phases taking turns. ` +
          "A storm starts 0.75 s before and ends after the `me` window, logging in with correct passwords (so nothing is throttled) or registering new emails; each storm caller sends its next request as soon as the previous one is answered. " +
          "The storms come from one address but stand for many clients, so the bench server's per-address register limit is raised out of the way (`AUTH_REGISTER_LIMIT`): every registration reaches the bounded hash queue, and those it cannot take are answered 503 (shed). " +
          "Latencies are taken from every answer as autocannon timed it, to a fraction of a millisecond. The client runs on the same two cores, so its own waits for a core are part of every figure; " +
          "the server's event loop delay (`monitorEventLoopDelay` inside the bare server, 1 ms resolution, over the same turns) shows what the server itself added.",
      ].join("\n"),
    });
    out.push({
      title: `A register flood: \`me\` while ${s.latency.stormConnections} and ${s.latency.floodConnections} callers register`,
      body: floodSection(r),
    });
  }

  out.push({
    title: "Limits of this machine",
    body: table(
      ["Measure", "Value"],
      [
        ...hashLimitRows(r),
        ["One HS256 verify (auth-core's token service, fast-jwt on node:crypto; median of the turns of `me`)", formatMs(r.floor.verifyMs)],
        [
          "One read of the user by id (auth-core's record store, SQLite; same turns): what `me` read before sessions",
          formatMs(r.floor.readMs),
        ],
        [
          "One read of a session with its user (auth-core's session store, one join by primary key; same turns): what `me` reads now",
          formatMs(r.floor.sessionReadMs),
        ],
        [
          "`me` floor: the verify and the session read, one after the other",
          `${formatMs(r.floor.floorMs)} → ${ops(inProc.me.floor.median)}/s on one thread; the handler reached ${ops(inProc.me.ours.median)}/s, ${pct(inProc.me.ours.median / inProc.me.floor.median)} of it (the rest: building the Request, routing, the JSON answer)`,
        ],
      ],
    ),
  });

  const st = r.startup;
  out.push({
    title: `Command-line start-up (whole processes, ${s.startup.rounds} turns, medians)`,
    body: [
      table(
        ["Measure", "create-domain-auth", "create-t3-app", "Ratio"],
        [
          [
            "Time to the first prompt (pseudo-terminal)",
            formatMs(st.wizardFirstPrompt.median),
            formatMs(st.t3FirstPrompt.median),
            formatRatio(st.wizardFirstPrompt.median / st.t3FirstPrompt.median),
          ],
          [
            "`validate` on the blog example / `--help`, until exit",
            formatMs(st.wizardValidate.median),
            formatMs(st.t3Help.median),
            formatRatio(st.wizardValidate.median / st.t3Help.median),
          ],
          ["A Node.js process printing one line (the floor)", formatMs(st.nodeFloor.median), "", ""],
        ],
      ),
      "",
      'The first prompt is timed by the wizard\'s own script (`apps/wizard/scripts/time-to-first-prompt.mjs`, one run per turn): `create-domain-auth` in a folder with a `domain.yaml`, create-t3-app until "What will your project be called?" is drawn.',
    ].join("\n"),
  });
  return out;
}

const FINDINGS = `## Profiles and changes

### Lists: search, sort and filters (auth-core change)

Entity lists take \`q\`, \`sort\` and \`where.<field>\` (docs/api.md#lists). A page of 20 posts of each
kind beside the default order's page of the same size and database, measured with \`node bench/lists.mjs
--rounds 3\` (the section "Lists with search, sort and filters" above; \`npm run bench\` takes the same
turns): in process, 10 callers, medians of 3 turns, every page, size and database taking turns. **Taken
under load**: other tests were running on the 2 cores (load average 6.4 before and 7.9 after), so the
ratios are what to read, the pages/s context only. The posts are those of "Lists at scale" with an
enum \`status\` added (four values, a quarter each) and the word \`release\` in one title in a hundred.
The cost is the default order's pages/s over the row's:

| Page | SQLite: 10,000, 100,000, 1,000,000 posts | PostgreSQL: 10,000, 100,000, 1,000,000 posts |
| --- | --- | --- |
| \`q=release\` (1 % of the posts), first page | 3.67×, 60.2×, 822× | 1.28×, 61.9×, 552× |
| \`sort=title\`, first page | 2.90×, 41.9×, 836× | 1.20×, 66.5×, 418× |
| \`sort=title\`, \`after\` its 90 % mark (against the default order's deep page) | 3.42×, 68.6×, 696× | 1.74×, 16.8×, 272× |
| \`where.status=review\` (25 %), first page | 2.00×, 0.93×, 0.81× | 0.50×, 0.96×, 1.08× |
| Searched and sorted pages, pages/s | 594–752, 88–126, 5.0–6.0 | 328–494, 26–111, 2.9–6.5 |
| The default order's first page, pages/s (the baseline) | 2,182, 5,289, 4,207 | 421, 1,729, 1,580 |

- **The filter** costs what the default order does: its page walks the \`(createdAt, id)\` index and
  passes over the posts it leaves out (SQLite's plan \`SCAN post USING INDEX post__order\`, 0.05 ms at
  100,000), and a filtered list of more than 10,000 is counted once per 10 s, as the whole list is. At
  10,000 posts both lists are counted on every page: the filter's 2,500 by reading the table's rows,
  the whole list's 10,000 from a narrower index (SQLite 2.00×; PostgreSQL 0.50×, counting a quarter as many).
- **A search's page** is cheap as well (it walks the same index until 21 titles match, about 2,100
  posts: 0.28 ms at 100,000 on SQLite), **its count is not**: 1 % of the posts is at most 10,000 up to a
  million, so a searched list is counted on every page, and the count tests \`lower("title") LIKE\` on
  every row (12.5 ms at 100,000 on SQLite, against 0.28 ms for the page). Its cost grows with the table.
- **A sort by another key** reads every record of the list and keeps the first 21 (SQLite \`SCAN post |
  USE TEMP B-TREE FOR ORDER BY\`, 16 ms at 100,000; PostgreSQL a top-N heapsort over a sequential scan),
  on every page: a page deep in by the cursor costs what the first does.
- **Where it stops being fine**: at 10,000 records in the list a searched or sorted page costs 1.2× to
  3.7× the default order's (hundreds of pages a second even under this load); at 100,000, 17× to 69×
  (on SQLite 8 to 11 ms of the one thread per page, during which better-sqlite3 holds the event loop,
  so every other request of the process waits); at 1,000,000, 270× to 840× (a fifth of a second or more
  a page, 3 to 7 pages/s). The list is the caller's: an \`@Owner\` list or an organization's is its own
  records, not the table's. Thousands to a few tens of thousands are fine; at hundreds of thousands, a
  sort that is used often wants an index, and a search a full-text index or a search service.
- **The index for a sort**: the page is ordered by \`"title" is null, "title", "id"\` (records without a
  value last, on both databases), so the index is on those three: SQLite \`create index post_title_order
  on post ("title" is null, "title", "id")\`, PostgreSQL \`create index post_title_order on post
  (("title" is null), "title", "id")\`. Tried by hand at 100,000 posts, it makes the first page one range
  of the index (SQLite 15.9 → 0.05 ms, PostgreSQL 91 → 0.2 ms). It does not fix a page \`after\` a cursor,
  whose keyset condition is an \`OR\` (\`"title" > ? or ("title" = ? and "id" > ?) or "title" is null\`):
  SQLite reads the rest of the order after the cursor and sorts it (12.3 → 1.5 ms at the 90 % mark,
  more nearer the start), PostgreSQL walks the index from its start, filtering out the 90,001 posts
  before the cursor (25 → 41–64 ms, slower than without it). Written as one row comparison,
  \`(("title" is null), "title", "id") > (false, ?, ?)\`, PostgreSQL reads one range of that index
  (0.11 ms); SQLite does not take a range of an expression index for it (a whole index scan, 6.7 ms).
  So deep pages of an indexed sort also need \`list-sql.ts\`'s keyset condition to be one an index range
  answers.
- The default order's first page is slower at 10,000 posts than at 100,000: a list of at most 10,000
  is counted on every page, a larger one once per 10 s. The ratios at 10,000 are against a counted page.

\`\`\`sh
node bench/lists.mjs --rounds 3   # these rows alone, about 3 minutes; --sizes 10000,100000 to leave out the million
npx vitest run --config bench/vitest.config.ts   # the smoke version: every page at 2,000 posts on SQLite
\`\`\`

### First load of the admin (web change)

The admin was one page, \`/admin\`, with every section on it (users, each entity's records,
organizations, API keys, activity) in one client component; it is now a page per section beside a
navigation: \`/admin\` an overview, \`/admin/users\`, \`/admin/records/<entity>\`, and so on. What a first
visit makes the browser fetch, measured with \`node bench/first-load.mjs\`: the app's production build
on a new SQLite database (the blog example), the first administrator signed in through \`/login\` in
headless Chromium, then each page in a fresh navigation with the cache disabled, every script
counted until the network is quiet. On the wire is CDP's \`Network.loadingFinished\` encodedDataLength
(response headers included; the server gzips every script but the two under 1 KiB, sent chunked
without a Content-Length), decoded is the scripts as they are once unpacked. Before: 971fa5b, cloned, \`npm ci\`
and built on its own; after: the working tree of 2026-11-29, built twice (the first split, then a module per page):

\`\`\`sh
git clone -q . /tmp/before && git -C /tmp/before checkout -q 971fa5b
(cd /tmp/before && npm ci && node scripts/build-web.mjs)
node bench/first-load.mjs --app-dir /tmp/before/apps/web    # before
node scripts/build-web.mjs && node bench/first-load.mjs     # after: /admin, /admin/records/post, /admin/users
\`\`\`

Each command run three times, each run loading each page three times: every figure the same in all of them.

| Build | Page | Scripts | On the wire | Decoded |
| --- | --- | --- | --- | --- |
| Before (971fa5b) | \`/admin\`, the one page | 12 | 167.2 KiB (171,207 B) | 535.6 KiB (548,481 B) |
| After, one module for five pages | \`/admin\`, the overview | 13 | 174.7 KiB (178,882 B) | 558.4 KiB (571,847 B) |
| After, a module per page | \`/admin\`, the overview | 13 | 162.0 KiB (165,868 B) | 515.7 KiB (528,119 B) |
| After, a module per page | \`/admin/records/post\` | 13 | 168.3 KiB (172,344 B) | 534.9 KiB (547,778 B) |
| After, a module per page | \`/admin/users\` | 13 | 166.2 KiB (170,201 B) | 528.5 KiB (541,216 B) |

The rest is the same on every page: Next.js's and React's runtime with the root layout, 144,060 B on
the wire (468,886 decoded) in both builds, and the layout of the \`(domain-auth)\` pages, 16,890 B
before and 18,272 B after (48,630 and 53,157 decoded; its navigation changed in the same rework). No
script was requested after the load event in either build: the router's prefetches of the
navigation's links fetched RSC payloads only.

The first split put the overview, users, activity, API keys and organizations pages in one \`"use
client"\` module, so each loaded the same 46,861-byte chunk and the overview fetched 7,675 B more than
the one-page admin (+4.5 %). With a module per page, the overview fetches 5,339 B less than the one
page did (−3.1 %, decoded −3.7 %), the users page 1,006 B less, and a records page, which carries
the table, the search, the sort and the record form, 1,137 B more (+0.7 %). The runtime every page of
the app loads is 84 to 87 % of each.

### Organizations: the membership in the token check's read (auth-core change)

A tenant request with a session now reads the path's organization and the caller's membership in
the token check's own statement (the session, its user, the organization and the membership joined
by primary key) instead of a read of its own after it; an API key or an anonymous caller still makes
that read. Before and after, \`node bench/tenants.mjs --rounds 5\` (CPU per request; the tenant first page
against the non-tenant page followed by one membership read, 1,000 and 100,000 records):

| Run | SQLite | PostgreSQL |
| --- | --- | --- |
| Before (the membership read after the token check; load average 4.9 → 1.5) | 1.44×, 1.18× | 1.20×, 1.03× |
| After, on a loaded machine (load average 4+, other builds running) | 1.18×, 0.88× | 0.98×, 0.91× |
| After, on a quiet machine (load average 1.7 → 1.9) | 1.12×, 0.91× | 1.15×, 1.17× |

The statement count went down by one on every tenant request with a session; the PostgreSQL
figures move by more between runs than the round trip it saves (about 0.17 ms), so the rows of the
section above are left from the run before the change. \`me\` reads no organization either way (the
token check without one is the same statement as before); its ratio in these runs (1.04× before,
1.3–1.4× on SQLite after) moved with the instance it was measured on, and a direct A/B of \`me\` on the
two domains alone (5,000 calls each, alternating, 4 rounds) showed no difference.

### Organizations: the lists of tenant entities (auth-core change)

A tenant entity's list is one organization's records: \`select * from "project" where "organizationId" = ?
[and ("createdAt", "id") > (?, ?)] order by "createdAt", "id" limit ?\` (\`RecordLists.sqlOf\`), one range
of the \`(organizationId, createdAt, id)\` index (\`project__org_order\`) on both databases whatever the
table holds (the plans are under "Tenant lists at scale"), after one read more than a request to any
other entity: the caller's membership (\`OrganizationStore.access\`, the organization and the
membership joined by primary key). Measured with \`node bench/tenants.mjs --rounds 5\` (the tenant
rows above; CPU per request, on PostgreSQL with its backends', medians of 5 turns; load average 4.9
before and 1.5 after):

| Measure | SQLite | PostgreSQL |
| --- | --- | --- |
| A page of the caller's organization (100,000 of 1,000,000 records, 10,000 organizations) against the same page among 1,000 records: first page, deep page | 0.64×, 0.75× | 0.71×, 0.74× |
| The same for a small organization of that table (90 records) | 0.73×, 0.72× | 0.82×, 0.88× |
| A tenant first page against the same non-tenant page: 1,000 records, 100,000 | 1.61×, 1.27× | 1.46×, 1.54× |
| The same against the non-tenant page followed by one membership read (the target: ≤ 1.1×) | 1.44×, 1.18× | 1.20×, 1.03× |
| The membership read alone | 11 µs | 162 µs |
| \`me\` with organizations against the same domain without | 1.04× | 0.98× |

Neither the table's size nor the number of organizations shows in a page's cost; the larger lists
are the cheaper ones, as a list of more than 10,000 records is counted once per 10 s where a list
of 1,000 counts itself on every page. What a tenant request adds beyond the membership read is the
same statements over more bytes: its page reads rows one column wider, scattered among other
organizations' (the statement alone: SQLite 32 against 24 µs, PostgreSQL 194 against 132 µs, at
100,000 records), and the count of a list of at most 10,000 records walks \`(organizationId,
createdAt, id)\` where a non-tenant count walks the narrow index of the primary key (SQLite 69
against 29 µs, PostgreSQL 217 against 152 µs, at 1,000 records). On PostgreSQL, where every
statement is a round trip, that is within the target for a large list and 1.20× for a counted one;
on SQLite, where the membership read costs 11 µs, the wider page and count weigh more than the read.

Two things the plans showed on the way:

- PostgreSQL counts an organization's records from the index alone (Index Only Scan, 170 buffers
  for 10,001 of them) once VACUUM has set the table's visibility map. Right after the bulk load,
  with ANALYZE alone, the same count was a Seq Scan through 100,000 rows (1,539 buffers), and a small
  organization's a Bitmap Heap Scan reading one heap page per record. Autovacuum vacuums tables that
  grow by inserts (PostgreSQL 13 and later), so the benchmark measures after \`VACUUM ANALYZE\`.
- Where one organization holds the whole table (the 1,000-record instance), both databases count it
  with a full scan and PostgreSQL pages it through \`(createdAt, id)\` with a filter: the right plans
  for that table, each page still reading 21 rows.

### Sign-in with providers (auth-core change)

A session a provider started is the same row in the same table as a password's: \`me\` reads it, and
its user, in the same one read, and never the identities table. Measured in process on SQLite (one
caller, \`auth.handle\` of \`GET me\` with a bearer token, 3,000 calls a turn, medians of 9 turns taking
turns, after 3 turns of warm-up): a password's session 81.2 µs a call, a provider's (a user a
provider signed up through the OpenID Provider of the tests, no password) 81.2 µs: 1.00×.

### The registry runs the endpoints (auth-core change)

Every auth endpoint now runs through \`bindOperation\` (\`endpoints/operation.ts\`), which checks what
its catalog entry declares (the caller, a recent sign-in, the query, the body) before its handler.
Two builds side by side on bare node:http, taking turns (\`node bench/ab.mjs --a OLD/dist/index.js
--only me,meApiKey --rounds 5\`: 10 connections, medians of 5 turns of 3 s), the build before
against this one, measured twice:

| Measure | Before | First cut | Ratio | Before | Final | Ratio |
| --- | --- | --- | --- | --- | --- | --- |
| \`me\`, req/s | 15,442 | 13,716 | 0.89× | 15,663 | 15,728 | 1.00× |
| \`me\` with an API key, req/s | 22,922 | 20,253 | 0.88× | 22,261 | 22,745 | 1.02× |
| \`me\`, CPU ms per request | 0.060 | 0.069 | 0.87× | 0.063 | 0.063 | 1.01× |

The first cut ran every step for every operation: an \`async\` wrapper, an empty query parsed and a
body step awaited even where none is read. The final one binds each operation to the steps its
entry declares; one that declares only a caller (\`me\`, the lists) is its caller's check and then
its handler, as before, so it costs the same.

The session check and the API-key check then came to share one read (\`store/credential-user-read.ts\`:
a credential's row joined with its user, compiled once per entity). Measured the same way against the
build before it: \`me\` 15,558 → 15,271 req/s (0.98×), \`me\` with an API key 22,022 → 22,836 (1.04×),
CPU per request 1.00× and 1.04×: the same, within the turns' noise.

### The native bcrypt (auth-core change)

A login is one bcrypt comparison and little else, so what the hash costs is what a login costs. The
hashing threads now run the native \`bcrypt\` (6.0.0, prebuilt binaries inside its npm package) where
it loads and \`bcryptjs\` otherwise, at the same cost and with the same hashes
([security.md](security.md#password-hashing)). The two login targets above and the login rows of
"In process" and "Limits of this machine" measure the core on each library in the same turns.

Two builds side by side on bare node:http, taking turns (\`node bench/ab.mjs --a OLD/dist/index.js
--only login,me --connections 1 --rounds 5 --seconds 3\`: one caller, bcrypt cost 10, medians of 5
turns): the build before (bcryptjs) against the one with the native bcrypt, run twice on a busy
machine (load average 7.8 to 8.3 in the first run, 9.6 to 12.8 in the second; other engineers'
builds and tests were running).

| Measure | Before (bcryptjs) | After (native bcrypt) | Ratio |
| --- | --- | --- | --- |
| \`login\` p50, one caller, first run | 103.44 ms | 72.90 ms | 1.42× |
| \`login\` p50, one caller, second run | 119.51 ms | 83.25 ms | 1.44× |
| \`login\`, server CPU per login (first / second run) | 79.6 / 80.0 ms | 58.5 / 58.6 ms | 1.36× / 1.36× |
| \`me\`, server CPU per request (first / second run; \`me\` did not change) | 0.140 / 0.123 ms | 0.122 / 0.112 ms | 1.15× / 1.10× |

The CPU a login costs the server fell by the same factor in both runs (1.36×), and the one-caller
p50 by 1.42× and 1.44×; \`me\`, whose code did not change, moved by 1.10× to 1.15×, which is this
machine's noise. In process (\`node bench/login.mjs --rounds 5\`, the login turns alone), logins on the
native bcrypt against the same core forced onto bcryptjs in the same turns: 1.30× (17.8 against 13.7
logins/s, load average 6.9 to 8.1) and 1.37× (9.3 against 6.8, load average 9.6 to 10.6); what two
threads comparing back to back got from the machine: 1.52× and 1.40× more with the native bcrypt.

### Sign-in with second factors and security events (auth-core changes)

A login now also asks whether the user has a passkey (beside the TOTP read, at once) and writes its
\`login.succeeded\` event in the transaction that starts the session. Measured with two builds of the
core side by side on bare node:http, taking turns (\`node bench/ab.mjs --a OLD/dist/index.js --only
login,me --connections 1\`: 5 turns of 3 s, one caller, bcrypt cost 10, medians): the build before
second factors' passkeys and the events against the one with both.

| Measure | Before | After | Ratio |
| --- | --- | --- | --- |
| \`login\` p50, one caller (a user without a second factor) | 76.20 ms | 76.34 ms | 1.00× (+0.2 %) |
| \`login\`, server CPU per login | 76.7 ms | 77.4 ms | 0.99× |
| \`me\`, server CPU per request (writes no event) | 0.146 ms | 0.138 ms | 1.06× |

Lists page by keyset since (docs/api.md#lists): a page reads one row more than it shows (whether a next
page exists), answers its \`nextCursor\`, and counts the list only when the page did not already
(a first page that holds the whole list has counted it), up to 10,000. The same two builds, 20
posts, 10 connections, 5 turns of 2 s: the list's server CPU per request 0.279 ms before, 0.302 ms
after (0.92×; \`me\` in the same turns 0.93×, so about the machine's noise), and no longer growing
with the table: see "Lists at scale".


### Hashing yields to request handling (auth-core change)

With both hashing threads busy on a 2-core machine, the thread that answers \`me\` had to share the
CPU with them: during a login storm \`me\`'s p50 doubled and its tail grew with it. Password hashing
threads now lower their own CPU priority (niceness +10, Linux, \`packages/auth-core/src/password/hash-worker.js\`),
so a request that is ready to run gets a core first, and hashing still uses every spare cycle.
Before/after, measured once in one run with the two builds side by side, taking turns (bare
node:http, \`me\` at 400 req/s from 4 connections, 16 callers logging in, 2 s per turn, medians of 6
turns; the machine was busy with other work):

| Build | Idle p50 | Idle p99 | Login storm p50 | Login storm p99 | Storm p99 per turn (ms) | Logins/s |
| --- | --- | --- | --- | --- | --- | --- |
| before: hashing at the process's priority | 3.71 ms | 19.8 ms | 7.90 ms | 29.2 ms | 67.3, 44.0, 29.0, 19.6, 29.5, 19.0 | 9.9 |
| after: hashing at niceness +10 | 3.62 ms | 28.5 ms | 1.66 ms | 14.0 ms | 22.2, 13.2, 14.9, 17.2, 11.6, 10.0 | 10.7 |

Login throughput did not drop in that run. With spare CPU the hashing threads still get every
core; what they give up is CPU that other runnable work wants, so on a machine shared with other
busy processes logins slow down before those do (the hashing capacity row above shows how much
the machine had to give).

### A bounded hash queue and register throttling (auth-core change)

Registrations used to wait for the hashing threads in a queue without end: 80 from one client
were all created, and a login behind them waited for every hash. Now each client address may
register \`AUTH_REGISTER_LIMIT\` times an hour (100 by default; counted in the database, and an
address over it is refused from memory), and at most 8 hashes per thread wait for one; past that,
register, login, setup and password changes are answered 503 \`UNAVAILABLE\` with
\`Retry-After: 1\` at once (register and login before reading the body). Measured once with the
two builds side by side, taking turns (bare node:http, the per-address limit raised, \`me\` at 400
req/s from 4 connections, one login with the right password per turn, 3 turns of 2 s, medians; the
machine was busy with other work):

| Build | Idle \`me\` p99 | 200 callers registering: \`me\` p50 / p99 | A login meanwhile | Accounts created | Refused |
| --- | --- | --- | --- | --- | --- |
| before: a queue without end | 3.4 ms | 0.68 ms / 9.8 ms | 200 after 4,109 ms | 23.5/s | – |
| after: 8 per thread, then 503 | 5.5 ms | 52.3 ms / 136 ms | 503 after 49 ms, to retry in 1 s | 8.6/s | 5,447/s |

The queue without end was its own back-pressure: each of the 200 callers waited seconds for its
hash, so the server had little else to do and \`me\` kept its latency, while every login waited
behind the whole flood. Answering at once bounds every wait, but a caller that ignores
\`Retry-After\` comes straight back, so the server's one event loop is kept busy refusing, as it
would be by 200 callers asking for \`me\` (the flood table above), and here, with the load
generator on the same two cores, the hashing threads got less CPU too. A flood from one address
stops being hashed after its 100 registrations of the hour (\`test/hardening/register-flood.test.ts\`).

### SQLite statements prepared once (auth-core change)

kysely prepares every SQLite statement again on each query; the store now hands it a
better-sqlite3 database that keeps each prepared statement by its SQL text
(\`packages/auth-core/src/store/statement-cache.ts\`). \`me\` in process, 10 callers, the two
stores taking turns in one run (7 turns of 1.5 s, medians): 4,418 ops/s cached against 3,869
prepared per query, 1.14×.

### Next.js's share

\`node --cpu-prof\` on the web app's server under a \`me\` load (\`node bench/profile.mjs next\`):
more than a quarter of the samples are in \`next\` itself (route resolution, manifests, the
app-route module, \`renderToResponseImpl\`), and much of the rest in the Web \`Request\`/\`Response\`,
stream and \`AbortSignal\` plumbing Next.js builds around each request, async-context bookkeeping
and its bundled runtime; auth-core and what it calls (jose and its WebCrypto jobs, kysely,
better-sqlite3, the handler) are under a fifth. The bare server does the same handler's work plus
node:http and nothing else. The server process's CPU per request (tables above) says the same in
one number.

No change in auth-core closes that gap, so the web app's server now answers API requests itself:
\`apps/web/server.mjs\` hands a plain \`/api/…\` path to auth-core (\`createNodeListener(auth.handle)\`,
the very listener of the bare server) before Next.js, unless something of the project's own could
answer it (a route, a \`next.config\` redirect, rewrite or header rule, a proxy whose matcher covers
it: read once from the build's manifests; see docs/web.md). \`me\` through the web app now costs
what it costs on bare node:http, and the HTTP table above measures the old way too: the same \`me\`
by way of a Next.js route handler (\`/api/bench-me\`, a route of the project's own, which \`server.mjs\` leaves to Next.js),
next to a route handler that does nothing but answer a constant, both on the same server and build
(a copy of the app with that one route added, \`ensureTrivialRouteBuilt\` in \`test/support/app-variants.mjs\`).

### The core's own cost per request (auth-core changes)

Profiled first, before any change: \`node --cpu-prof\` on the bare server (\`node bench/profile.mjs
node-http\`, 10 connections, 6 s, the last 5.5 s kept; the machine was loaded by other work, so it
answered 1,011 \`me\`/s at 0.76 ms of CPU each). Where a \`GET /api/user/me\` went, by share of the
samples:

| Where | Before | After changes 1 and 2 below |
| --- | --- | --- |
| HS256 verify: jose's WebCrypto HMAC, one job on the libuv thread pool per token (\`internal/crypto/util\`, \`js_transferable\`, \`crypto/mac\`) and jose itself | 30.7 % | 8.3 % (fast-jwt and \`node:crypto\`'s \`Hmac\`, synchronous) |
| The socket write (\`writev\`, the kernel side of the loopback) | 15.5 % | 29.8 % (the same work, a larger share of less) |
| Web \`Request\`/\`Response\` and their body streams (undici, \`webstreams\`, \`AbortSignal\`) | 11.5 % | 8.9 % (the request only) |
| The session-and-user read (kysely and better-sqlite3) | 5.1 % | 11.0 % |
| auth-core's own code (routing, claim checks, row conversion, serializer, JSON) | 6.1 % | 13.0 % |
| Idle, garbage collection, the rest of node:http | the rest | the rest |

Three changes, each measured in one run with two builds of the core side by side on bare
node:http, taking turns (\`node bench/ab.mjs --a OLD/dist/index.js\`: 10 connections, 2 s per
turn, medians). The machine was busy with other work throughout (load average about 10 on 2
cores), so req/s swung by 2× between turns; the server's CPU time per request is the steadier
figure and the one to read.

| Change | Measure | Before: CPU per request | After | Ratio (CPU) | req/s ratio in the same run |
| --- | --- | --- | --- | --- | --- |
| 1. Tokens signed and verified with fast-jwt (node:crypto, synchronous; the HMAC key made once per instance) instead of jose (WebCrypto, a thread-pool job per HMAC) | \`me\` | 0.549 ms | 0.386 ms | 1.42× | 1.04× |
| 2. JSON answers reach node:http as text: handlers build their \`Response\` without a body and keep the JSON text beside it; \`auth.handle\` attaches it for Web callers, \`createNodeListener(auth.handle)\` writes it with its \`Content-Length\` and no stream | \`me\` | 0.490 ms | 0.341 ms | 1.44× | 2.08× |
| | entity list (20 records) | 0.898 ms | 0.676 ms | 1.33× | 1.38× |
| 3. The SQL of a list page and its count built once per table (as the token check's read already was) | \`store.list\`, 20 rows, in process (7 alternating turns of 3,000 calls) | 621 µs per call | 274 µs | 2.27× | – |
| 1 + 2 together, the build before against this one | \`me\` | 0.566 ms | 0.316 ms | 1.79× | 1.18× |
| | entity list (before change 3) | 1.012 ms | 0.856 ms | 1.18× | 0.54× (turns: 243–769 against 254–526) |
| | \`refresh\` | 2.178 ms | 2.154 ms | 1.01× | 1.03× |
| Web callers: \`auth.handle\` in process (the route handler of the web app), 10 callers, the three builds taking turns (7 turns of 3,000 calls, the body read) | \`me\`, wall time per call | 401 µs (before), 295 µs (after 1) | 299 µs (after 1 + 2) | 1.34× | – |

Change 2 costs Web callers nothing measurable (295 against 299 µs in the row above): they get the
same complete \`Response\`, built once its text is known. Why change 2 matters: in Node.js 20 a \`new Response(text)\` costs 50–75 µs on this machine
(undici builds a \`ReadableStream\` for every body), against 2–7 µs for \`new Response(null)\`;
reading it back with \`arrayBuffer()\` for node:http doubles that. Every check stays where it was:
the token service still pins HS256 (the library refuses any other \`alg\`, and so does our own
check of the header), requires \`iss\` to be the domain's name, \`sub\`, \`iat\`, \`exp\` and \`jti\`,
refuses any \`crit\`, checks \`exp\` against the instance's clock with no leeway, and refuses a
token whose \`exp − iat\` exceeds the TTL; the session and user are read and compared as before.

### The core's own cost per request, second round (auth-core changes)

Profiled again with \`perf record\` (node's \`--perf-basic-prof\`, so the kernel, better-sqlite3 and
V8's own work show beside the JavaScript) on the bare server under \`me\`: after round one the
largest pieces of the core's own work were the Web \`Request\` and \`Headers\` made for every call
and the \`Response\` and \`Headers\` made for every answer (with \`Object.fromEntries\` to read them
back), the read of the session and user (21 columns, the password hash and the refresh hashes
among them, each column name made into a V8 string per row, then three copies of the user), the
auth routes' handlers made anew per request, and an \`async\` layer per wrapper. A refresh spent
most of its time waiting for its own fsync, with the event loop stopped meanwhile (better-sqlite3
is synchronous), and built its read with kysely on every call.

Each change measured with \`node bench/ab.mjs --a OLD/dist/index.js --floor\` (two builds of the core
and the hand-written floor on bare node:http, taking turns, 10 connections, 2 s per turn, medians of
5 turns; the machine shared with other work):

| Change | Measure | Before: CPU per request | After | Ratio (CPU) | req/s in the same run |
| --- | --- | --- | --- | --- | --- |
| 4. \`createNodeListener(auth.handle)\` reads Node's request as it is (\`ApiRequest\`: method, URL, headers by name, body; a Web \`Request\` is one too), the auth routes' handlers made once | \`me\` | 0.134 ms | 0.108 ms | 1.25× | 7,399 → 9,072/s |
| 5. The token check reads only the columns it and the routes after it use (never the password hash), built once; a read on SQLite outside a transaction runs its prepared statement without kysely's queue | \`me\` against the floor | – | – | – | 0.56× → 0.60× of the floor |
| 6. Handlers answer with a plain reply (status, headers, JSON text): \`auth.handle\` makes one Web \`Response\` of it, \`createNodeListener\` writes it with no Web object at all | \`me\` against the floor | – | – | – | 0.60× → 0.67× of the floor |
| 4 to 6, the build before this round against this one | \`me\` | 0.134 ms | 0.090 ms | 1.48× | 7,495 → 10,747/s |
| | entity list (20 records) | 0.290 ms | 0.206 ms | 1.40× | 3,174 → 4,297/s |
| 7. Rotations that arrive together share one durable commit (\`store/commit-group.ts\`: each \`UPDATE\` runs alone and in order inside one \`BEGIN IMMEDIATE … COMMIT\`, and every refresh is answered only after that commit); the refresh read's SQL built once; request bodies read from Node's request without a Web stream | \`refresh\` | 0.747 ms | 0.232 ms | 3.22× | 882 → 3,150/s |
| 8. SQLite reads outside kysely return arrays, made into objects with column names made once per statement (\`store/row-reader.ts\`), and the rotation's SQL built once | entity list (20 records) | 0.208 ms | 0.185 ms | 1.12× | 4,369 → 4,797/s |
| | \`refresh\` | 0.215 ms | 0.187 ms | 1.15× | 3,873 → 4,479/s |
| The core at the start of the round (the build of \`f801ce8^\`, before fast-jwt) against this one, with changes 4 to 6 | \`me\` | 0.261 ms | 0.103 ms | 2.53× | 4,160 → 9,135/s (2.20×) |

Every check stays where it was: the same claims, the same session-and-user comparison, the same
SQL decides a rotation (exactly one of simultaneous refreshes with one token wins, tested in one
group), and an acknowledged refresh is still on disk (\`synchronous = FULL\`) before its answer
leaves. The Web path gained too: \`auth.handle\` used to build a \`Response\` without a body and
then a second one with it.

What is left, and why it was not taken further here:

- **The floor** (\`bench/servers/floor-http.mjs\`): one HMAC with \`node:crypto\`, a 10-column join
  with one prepared statement, JSON out. The core adds fast-jwt's decoding and claim checks (its
  own HMAC is a third of its verify), the wider row the routes need, routing, the serializer and
  a few promise hops; the socket write and the SQLite read are the same for both.
- **\`refresh\` against \`me\`**: a refresh is a read, a conditional write, an fsync shared with the
  others of its group, a token signature, a SHA-256 and 32 random bytes, and an answer carrying
  the user; \`me\` is one read. The commit group is as large as the refreshes waiting at once (10
  callers here), so its fsync still costs about as much as a whole \`me\`.
- **The entity list** does a \`me\`'s token check and then a page of 20 rows and their count,
  20 records serialized and a 4 KiB JSON text: the faster \`me\` got, the further below half of
  it the list fell, though the list itself got 1.4× faster.
- **\`me\` during a flood of 200 registering callers** waits for the one event loop, which reads
  and refuses thousands of registrations a second (see "A register flood"); a cheaper \`me\` does
  not change that, a limit per connection or per address in front of the server does.
`;

/** The printed version: the same tables, without the prose. */
export function renderText(r) {
  const lines = [`domain-auth benchmarks, ${r.date}, ${r.machine.cores} × ${r.machine.cpu}, Node.js ${r.machine.node}`, ""];
  for (const section of sections(r)) lines.push(`## ${section.title}`, "", section.body, "");
  lines.push(`Whole run: ${Math.round(r.durationSeconds)} s. ${r.notes.join(" ")}`);
  return lines.join("\n");
}

/** docs/benchmarks.md */
export function renderMarkdown(r) {
  const m = r.machine;
  const met = evaluateTargets(r);
  return `# Benchmarks

Figures of one run of \`npm run bench\` at the repository root (the exact command; it takes about
${Math.max(1, Math.round(r.durationSeconds / 60))} minutes). domain-auth against Better Auth ${r.versions?.betterAuth ?? ""} (email and password on better-sqlite3, bearer plugin, rate
limiter off) and against the limits of the machine. ${met.filter((t) => t.met).length} of ${met.length} targets met.

- **Date:** ${r.date}
- **Machine:** ${m.cores} cores, ${m.cpu}, ${m.memoryGiB} GiB; Node.js ${m.node}; load average ${m.loadBefore.toFixed(1)} before and ${m.loadAfter.toFixed(1)} after the run (other work was running)
- **Command:** \`npm run bench\` (\`node bench/run.mjs\`), ${Math.round(r.durationSeconds)} s (${Object.entries(r.sectionSeconds)
    .map(([name, seconds]) => `${name} ${Math.round(seconds)} s`)
    .join(", ")})${r.notes.length ? `\n- **Notes:** ${r.notes.join(" ")}` : ""}

**How to read it.** Every comparison is made inside this one run, the contenders taking turns
(the order rotates every round), and reported as medians and ratios. The machine is shared and
noisy, so absolute times are context only; the ratios are what the targets are about. All
databases are SQLite files in one temporary folder, each contender on its own file; domain-auth
hashes with bcrypt at cost ${r.hash.cost} on worker threads (${r.hash.library === "bcrypt" ? "the native bcrypt; logins on its bcryptjs fallback are measured in the same turns" : "bcryptjs"}), Better Auth with
scrypt (N=16384, r=16, p=1) on the libuv thread pool.

${sections(r)
  .map((section) => `## ${section.title}\n\n${section.body}\n`)
  .join("\n")}
${FINDINGS}
## Reproducing

- \`npm run bench\`: everything above, and rewrites this file (\`-- --no-write\` only prints).
- \`node bench/login.mjs [--rounds N]\`: the login rows alone (the limits of both bcrypt libraries, logins
  on each and Better Auth's, taking turns), in about a minute and a half; prints them in Markdown.
- \`node bench/tenants.mjs [--rounds N] [--save-results FILE]\`: the tenant rows alone (a page of 20 of one
  organization among 1,000 and 1,000,000 records, the same page of a non-tenant entity, the membership
  read, \`me\` with and without organizations; SQLite, and PostgreSQL at \`BENCH_POSTGRES_URL\` or the
  local server), in about four minutes; prints them in Markdown.
- \`node bench/lists.mjs [--rounds N] [--sizes 10000,100000] [--save-results FILE]\`: the rows of lists with
  search, sort and filters alone (a page of 20 posts of \`q\`, \`sort=title\` first and deep, \`where.status\`,
  beside the default order's pages, at 10,000, 100,000 and 1,000,000 posts; SQLite, and PostgreSQL at
  \`BENCH_POSTGRES_URL\` or the local server), in about three minutes; prints them in Markdown.
- \`node bench/first-load.mjs [--app-dir DIR | --url BASE] [--paths /admin,…] [--runs N] [--json]\`: the
  JavaScript a first visit of the admin fetches (scripts, bytes on the wire and decoded) in headless
  Chromium, signed in as the first administrator, each page in a fresh navigation with the cache
  disabled; \`--app-dir\` serves another checkout's production build (\`/tmp/before/apps/web\`, say).
- \`node bench/profile.mjs next|node-http|better-auth [--target me|refresh|list]\`: one server under a
  \`me\` (or refresh, or entity list) load with \`--cpu-prof\`, then a summary of the profile by
  package and function.
- \`node bench/ab.mjs --a OLD/dist/index.js [--b NEW/dist/index.js] [--floor]\`: two builds of the core on bare
  node:http taking turns (\`me\`, \`refresh\`, the entity list): req/s and CPU per request; \`--floor\`
  adds the hand-written floor to the turns. An older build: \`git archive REV packages/auth-core
  tsconfig.base.json | tar -x -C /tmp/base\`, link the repository's \`node_modules\` into it, and
  \`npx tsc -p tsconfig.build.json\` in its \`packages/auth-core\`.
- \`node bench/run.mjs --baseline OLD/dist/index.js\`: the same run with that build of the core on bare
  node:http in the \`me\` turns (the row "vs the core as it was before").
- \`node bench/run.mjs --save-results FILE\`: also keeps the raw figures of the run as JSON.
- The rows through Next.js run a copy of the web app with one trivial route handler added
  (\`.test-results/web-trivial-route\`, built by \`ensureTrivialRouteBuilt\` in \`test/support/app-variants.mjs\`
  when the app's sources change).
- \`npx vitest run --config bench/vitest.config.ts\`: the smoke version CI runs (each in-process
  benchmark for about a second, no thresholds).
`;
}
