// Opens and migrates one SQLite file as a server does when it starts, together with other processes.
// Usage: node open-together.mjs <file> <domain.yaml> <go file>. Prints "ready" once the package and the
// domain are loaded, opens the file as soon as <go file> exists, then prints "ok", or the error and
// exits 1.
import { existsSync } from "node:fs";
import { migrate, openDatabase } from "@domain-auth/core/admin";
import { loadDomain } from "@domain-auth/core/config";

const [file, domainFile, go] = process.argv.slice(2);
const model = await loadDomain(domainFile);
console.log("ready");
while (!existsSync(go)) {} // every process leaves this loop as soon as the file appears
try {
  const database = await openDatabase(`file:${file}`);
  await migrate(database, model);
  await database.close();
  console.log("ok");
} catch (error) {
  console.log(`domain-auth: cannot start: ${error.message}`);
  process.exitCode = 1;
}
