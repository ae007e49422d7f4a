#!/usr/bin/env node
// Writes docs/domain.schema.json from the built package: run `npm run build` first (the `schema` script does).
import { writeFile } from "node:fs/promises";
import { domainJsonSchema } from "../dist/config/index.js";

const target = new URL("../../../docs/domain.schema.json", import.meta.url);
await writeFile(target, `${JSON.stringify(domainJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
