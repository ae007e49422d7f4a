#!/usr/bin/env node
// Builds what the web app runs on when it is missing or stale (auth-core, then `next build` in apps/web):
// one step of `npm test`, before the suites that serve the app.
import { ensureBuilt } from "../apps/web/ensure-build.mjs";

const ran = ensureBuilt();
console.log(ran.length ? `built: ${ran.join(", ")}` : "the web app's build is up to date");
