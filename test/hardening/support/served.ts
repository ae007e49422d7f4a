import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { domainOf, TEST_SECRET } from "@domain-auth/test-support/domains";
import { type Auth, type CreateAuthOptions, createAuth, createNodeListener } from "../../../packages/auth-core/src/index.js";

/** An instance served on node:http on 127.0.0.1, as an attacker reaches it. */
export interface Served {
  readonly auth: Auth;
  readonly server: Server;
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly port: number;
  /** Stops the server (its open connections too) and the instance. */
  close(): Promise<void>;
}

/** Serves an instance of `yaml` with fast test settings (bcrypt cost 4, one hash thread) and `options`. */
export async function serve(databaseUrl: string, yaml: string, options: Partial<CreateAuthOptions> = {}): Promise<Served> {
  const auth = await createAuth({
    domain: domainOf(yaml),
    database: databaseUrl,
    secret: TEST_SECRET,
    bcryptCost: 4,
    hashThreads: 1,
    ...options,
  });
  const server = createServer(createNodeListener(auth));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    auth,
    server,
    base: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await auth.close();
    },
  };
}
