import type { Kysely } from "kysely";
import type { AuthModel } from "../config/index.js";
import type { ApiRequest } from "../http/api-request.js";
import { relyingPartyOf } from "../mfa/relying-party.js";
import type { AnyDB, Database } from "../store/database.js";
import { PROVIDER_TABLES } from "../store/provider-tables.js";
import type { SignedInUser } from "../store/rows.js";
import { SECOND_FACTOR_TABLES } from "../store/second-factor-tables.js";
import { writeTransaction } from "../store/transaction.js";
import { type IdentityRow, IdentityStore } from "./identity-store.js";
import { ProviderClient, type ProviderCredentials } from "./provider-client.js";

/**
 * Sign-in with providers for one instance (docs/providers.md): a client per declared provider, the
 * identities and flows tables, and the callback URL the providers redirect to.
 */
export class ProviderService {
  readonly identities: IdentityStore;
  private readonly database: Database;
  readonly #clients: ReadonlyMap<string, ProviderClient>;

  constructor(
    private readonly auth: AuthModel,
    database: Database,
    credentials: Readonly<Record<string, ProviderCredentials>>,
    /** `APP_URL`: the redirect URI is built from it, never from `Host`, wherever it is set. */
    private readonly appUrl: string | undefined,
    /** Hears of what failed at a provider (discovery, an exchange): the person gets a sentence, the owner the cause. */
    readonly report: (error: unknown) => void,
  ) {
    this.database = database;
    this.identities = new IdentityStore(database);
    this.#clients = new Map(
      auth.providers.flatMap((provider) => {
        const credential = credentials[provider.id];
        return credential ? [[provider.id, new ProviderClient(provider, credential)] as const] : [];
      }),
    );
  }

  /** The client of a declared provider; `undefined` for an id the domain does not declare. */
  client(id: string): ProviderClient | undefined {
    return this.#clients.get(id);
  }

  /**
   * The callback URL to register at a provider: `APP_URL` with the provider's callback path; without
   * `APP_URL` (development only) the request's own host, over http. `null` when neither is known.
   */
  redirectUri(request: ApiRequest, id: string): string | null {
    const path = `/api/${this.auth.entity.segment}/oauth/${id}/callback`;
    if (this.appUrl) return `${new URL(this.appUrl).origin}${path}`;
    const rp = relyingPartyOf(undefined, request);
    const host = request.headers.get("host");
    return rp && host ? `http://${host.toLowerCase()}${path}` : null;
  }

  /**
   * The ways a user can still sign in, read in `trx` with the user's row locked first (PostgreSQL;
   * SQLite writes one at a time): whatever removes a way in takes this lock before it deletes, so
   * two removals at once cannot both see another way left and leave none.
   */
  async waysIn(trx: Kysely<AnyDB>, userId: string): Promise<{ password: boolean; passkeys: number; identities: number } | undefined> {
    let query = trx.selectFrom(this.auth.entity.table).select(["id", "passwordHash"]).where("id", "=", userId);
    if (this.database.dialect === "postgres") query = query.forNoKeyUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    const count = async (table: string) =>
      Number(
        (
          await trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("count"))
            .where("userId", "=", userId)
            .executeTakeFirst()
        )?.count ?? 0,
      );
    const password = typeof row.passwordHash === "string" && row.passwordHash !== "";
    return { password, passkeys: await count(SECOND_FACTOR_TABLES.passkeys), identities: await count(PROVIDER_TABLES.identities) };
  }

  /**
   * Unlinks one of a user's identities, with `within` (its event) in the same transaction, unless it
   * is their last way in: no usable password, no passkey, no other identity ({@link waysIn}).
   */
  unlink(
    user: SignedInUser,
    identityId: string,
    within: (trx: Kysely<AnyDB>, removed: IdentityRow) => Promise<void>,
  ): Promise<"unlinked" | "not-found" | "last"> {
    return writeTransaction(this.database, async (trx) => {
      const ways = await this.waysIn(trx, user.id);
      const target = (await this.identities.listOf(user.id, trx)).find((identity) => identity.id === identityId);
      if (!ways || !target) return "not-found";
      if (!ways.password && ways.passkeys === 0 && ways.identities === 1) return "last";
      await this.identities.remove(trx, user.id, identityId);
      await within(trx, target);
      return "unlinked";
    });
  }
}
