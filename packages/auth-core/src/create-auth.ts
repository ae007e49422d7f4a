import { loadDomain } from "./config/validate.js";
import type { RouteContext } from "./context.js";
import type { Auth, CreateAuthOptions } from "./instance/auth.js";
import { createPageSessions } from "./instance/page-sessions.js";
import { createPipeline } from "./instance/pipeline.js";
import { resolveOptions } from "./instance/resolve-options.js";
import { createServices } from "./instance/services.js";
import { openDatabase } from "./store/database.js";
import { migrate } from "./store/migrate.js";
import { RecordStore } from "./store/record-store.js";

export type { Auth, CreateAuthOptions } from "./instance/auth.js";

/**
 * Creates an instance: opens the database, brings its schema up to date and returns the
 * Web-standard handler.
 *
 * @example
 * const auth = await createAuth({ domain: "domain.yaml", database: "file:.data/app.db", secret });
 * const response = await auth.handle(new Request("http://localhost/api/user/setup"));
 */
export async function createAuth(options: CreateAuthOptions): Promise<Auth> {
  const model = typeof options.domain === "string" ? await loadDomain(options.domain) : options.domain;
  const resolved = resolveOptions(options, model);
  const database = typeof options.database === "string" ? await openDatabase(options.database) : options.database;
  await migrate(database, model);
  const services =
    model.auth &&
    createServices(model.auth, database, { ...resolved, issuer: model.name, model, ...(options.mail ? { mail: options.mail } : {}) });
  const store = new RecordStore(database);
  const context: RouteContext = { model, database, store, services, clientAddress: resolved.clientAddress };
  const { answer, handle } = createPipeline(context, resolved);
  const { currentUser, renewSession, can, membership } = createPageSessions(context);
  return {
    currentUser,
    renewSession,
    can,
    membership,
    model,
    tools: {
      store,
      hasher: services?.hasher ?? null,
      sessions: services?.sessions ?? null,
      mfa: services?.mfa ?? null,
      apiKeys: services?.apiKeys ?? null,
      events: services?.events ?? null,
    },
    endpoints: services?.endpoints ?? null,
    setupTokenRequired: services?.setupToken != null,
    handle,
    answer,
    async isSetupRequired() {
      return !(await store.isSetupComplete());
    },
    async close() {
      await services?.mail?.close();
      await services?.events.settle();
      await services?.apiKeys.settle();
      await services?.hasher.close();
      if (typeof options.database === "string") await database.close();
    },
  };
}
