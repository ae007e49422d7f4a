import type { Kysely } from "kysely";
import type { AuthModel } from "../config/index.js";
import type { ApiRequest } from "../http/api-request.js";
import { relyingPartyOf } from "../mfa/relying-party.js";
import type { AnyDB, Database } from "../store/database.js";
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
   * Unlinks one of a user's identities, with `within` (its event) in the same transaction, unless it
   * is their last way in: no usable password, no passkey, no other identity. The user's row is
   * locked first (PostgreSQL; SQLite writes one at a time), so two disconnections at once cannot
   * both pass the count and leave the account with none.
   */
  unlink(
    user: SignedInUser,
    identityId: string,
    within: (trx: Kysely<AnyDB>, removed: IdentityRow) => Promise<void>,
  ): Promise<"unlinked" | "not-found" | "last"> {
    const entity = this.auth.entity;
    return writeTransaction(this.database, async (trx) => {
      let query = trx.selectFrom(entity.table).select(["id", "passwordHash"]).where("id", "=", user.id);
      if (this.database.dialect === "postgres") query = query.forNoKeyUpdate();
      const row = await query.executeTakeFirst();
      const held = await this.identities.listOf(user.id, trx);
      const target = held.find((identity) => identity.id === identityId);
      if (!row || !target) return "not-found";
      const hasPassword = typeof row.passwordHash === "string" && row.passwordHash !== "";
      if (!hasPassword && held.length === 1 && !(await this.hasPasskey(trx, user.id))) return "last";
      await this.identities.remove(trx, user.id, identityId);
      await within(trx, target);
      return "unlinked";
    });
  }

  private async hasPasskey(trx: Kysely<AnyDB>, userId: string): Promise<boolean> {
    const row = await trx.selectFrom(SECOND_FACTOR_TABLES.passkeys).select("id").where("userId", "=", userId).limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
