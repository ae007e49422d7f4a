// Opens and migrates one SQLite file at a given instant, as a server does when it starts.
// Usage: node open-at.mjs <file> <domain.yaml> <epoch ms>. Prints "ok", or the error and exits 1.
import { loadDomain } from "@domain-auth/core";
import { migrate, openDatabase } from "@domain-auth/core/admin";

const [file, domainFile, at] = process.argv.slice(2);
const model = await loadDomain(domainFile);
while (Date.now() < Number(at)) {} // every process leaves this loop in the same millisecond
try {
  const database = await openDatabase(`file:${file}`);
  await migrate(database, model);
  await database.close();
  console.log("ok");
} catch (error) {
  console.log(`domain-auth: cannot start: ${error.message}`);
  process.exitCode = 1;
}
