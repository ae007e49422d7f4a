import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as h from "./lib/http.mjs";

const dir = mkdtempSync(join(tmpdir(), "bench-"));
const core = await h.prepareCore(await h.startCoreServer(dir), 16);
const next = await h.prepareCore(await h.startNextServer(dir), 0);
const ba = await h.prepareBetterAuth(await h.startBetterAuthServer(dir));
for (const s of [core, next, ba]) console.log(s.name, await h.hitMe(s, { seconds: 2 }));
console.log("idle", await h.hitMe(core, { rate: 200, connections: 4 }));
console.log("login", await h.meDuringStorm(core, core, "login", { rate: 200 }));
console.log("idle", await h.hitMe(core, { rate: 200, connections: 4 }));
console.log("register", await h.meDuringStorm(core, core, "register", { rate: 200 }));
console.log("BA idle", await h.hitMe(ba, { rate: 200, connections: 4 }));
console.log("BA register", await h.meDuringStorm(ba, ba, "register", { rate: 200 }));
await Promise.all([core.stop(), next.stop(), ba.stop()]);
