import type { Kysely } from "kysely";
import type { EntityModel } from "../config/index.js";
import type { AnyDB } from "../store/database.js";
import type { StoredUser } from "../store/rows.js";
import { REUSE_GRACE_MS } from "./lifetimes.js";
import { hashRefreshToken, newRefreshToken, newSessionId } from "./secrets.js";
import type { LiveSessionRow, LiveSessionWithUser, SessionRow, SessionStore, SessionWithin } from "./session-store.js";

export { DEFAULT_REFRESH_TTL_SECONDS, DEFAULT_SESSION_MAX_AGE_SECONDS, REUSE_GRACE_MS } from "./lifetimes.js";
export type { SessionWithin } from "./session-store.js";

/** Ended sessions are kept this long, then purged. */
const KEEP_ENDED_MS = 24 * 3600 * 1000;
/** The global sweep of ended sessions runs at most this often per instance, deleting at most {@link SWEEP_LIMIT} rows. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_LIMIT = 500;
/** The most of a `User-Agent` a session keeps. */
export const MAX_USER_AGENT_LENGTH = 256;

/** How long sessions last, in seconds. */
export interface SessionLimits {
  /** A refresh token's lifetime, counted from the session's last refresh. */
  readonly refreshTtlSeconds: number;
  /** No session outlives this from its sign-in. */
  readonly maxAgeSeconds: number;
  /** A session proved its user recently for this long after its sign-in. */
  readonly reauthWindowSeconds: number;
}

/** A session's refresh token, as handed to the client. */
export interface IssuedRefresh {
  readonly sessionId: string;
  readonly refreshToken: string;
  /** Seconds until the refresh token expires. */
  readonly refreshExpiresIn: number;
}

/** Who signed in: the client's `User-Agent` and address. */
export interface SessionClient {
  readonly userAgent: string | null;
  readonly address: string | null;
}

/** The outcome of a refresh: the user re-read and the new refresh token, or refused. */
export type RefreshOutcome =
  | { readonly refreshed: true; readonly user: StoredUser; readonly issued: IssuedRefresh }
  | { readonly refreshed: false };

const REFUSED: RefreshOutcome = Object.freeze({ refreshed: false });

/** What a refresh does when it finds a spent refresh token replayed. */
export interface ReuseOptions {
  /** Commits with the revocation of the session whose spent token came back (the event that records it). */
  readonly onReuse?: SessionWithin;
}

/** Starts, rotates, lists and revokes sessions (docs/api.md#sessions). */
export class SessionService {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    readonly store: SessionStore,
    private readonly limits: SessionLimits,
    /** Current time in milliseconds. */
    readonly now: () => number,
  ) {}

  private expiryOf(createdAt: number, now: number): number {
    return Math.min(now + this.limits.refreshTtlSeconds * 1000, createdAt + this.limits.maxAgeSeconds * 1000);
  }

  private issued(sessionId: string, refreshToken: string, expiresAt: number, now: number): IssuedRefresh {
    return { sessionId, refreshToken, refreshExpiresIn: Math.max(0, Math.floor((expiresAt - now) / 1000)) };
  }

  /**
   * Starts a session for a user who just signed in, `within` committing with it; purges ended
   * sessions on the way.
   */
  async start(userId: string, client: SessionClient, options: { readonly within?: SessionWithin } = {}): Promise<IssuedRefresh> {
    const now = this.now();
    const refreshToken = newRefreshToken();
    const expiresAt = this.expiryOf(now, now);
    const row: SessionRow = {
      id: newSessionId(),
      userId,
      createdAt: now,
      refreshedAt: now,
      expiresAt,
      userAgent: client.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
      address: client.address,
      revokedAt: null,
      refreshHash: hashRefreshToken(refreshToken),
      previousHash: null,
      rotatedAt: null,
    };
    const within = options.within;
    await this.store.insert(row, within && ((trx) => within(trx, row)));
    await this.purgeEnded(userId, now);
    return this.issued(row.id, refreshToken, expiresAt, now);
  }

  /** The user's own ended sessions, and, at most once a minute, a bounded batch of anyone's. */
  private async purgeEnded(userId: string, now: number): Promise<void> {
    await this.store.purge(now - KEEP_ENDED_MS, { userId });
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    await this.store.purge(now - KEEP_ENDED_MS, { limit: SWEEP_LIMIT });
  }

  /**
   * Whether a session's sign-in is recent enough for a sensitive action (adding a factor, a key, a
   * provider): its start is the moment its user last proved who they are, and refreshes keep it.
   */
  isRecent(session: Pick<LiveSessionRow, "createdAt">): boolean {
    return this.now() - session.createdAt < this.limits.reauthWindowSeconds * 1000;
  }

  /**
   * A live session and its user, by id: `undefined` for an unknown, revoked or expired session or a
   * deleted user. With `organizationId`, that organization and the user's membership of it, in the same read.
   */
  async findLive(entity: EntityModel, id: string, organizationId?: string): Promise<LiveSessionWithUser | undefined> {
    const found = await this.store.findForTokenCheck(entity, id, organizationId);
    if (!found || found.session.revokedAt !== null || found.session.expiresAt <= this.now()) return undefined;
    return found;
  }

  /**
   * Spends a refresh token for a new one. A spent token presented again revokes its session,
   * unless within {@link REUSE_GRACE_MS} of its rotation; of simultaneous refreshes with one token
   * the database lets exactly one through. Never hashes a password.
   */
  async refresh(entity: EntityModel, refreshToken: string, options: ReuseOptions = {}): Promise<RefreshOutcome> {
    const now = this.now();
    const hash = hashRefreshToken(refreshToken);
    const found = await this.store.findByRefreshHash(entity, hash);
    if (!found) return this.refuseSpent(hash, now, options);
    const { session, user } = found;
    if (session.revokedAt !== null || session.expiresAt <= now) return REFUSED;
    const issued = await this.renew(session, { now });
    return issued ? { refreshed: true, user, issued } : REFUSED;
  }

  /**
   * Revokes the session this refresh token belongs to (a sign-out by the refresh cookie): the one
   * whose current token it is, or whose rotation spent it, since another tab may have just refreshed
   * with it and holds the new one; `within` commits with the revocation. `false` for none.
   */
  async revokeByRefreshToken(entity: EntityModel, refreshToken: string, within: SessionWithin): Promise<boolean> {
    const hash = hashRefreshToken(refreshToken);
    const found = await this.store.findByRefreshHash(entity, hash);
    if (found) return this.store.revokeWith(found.session.id, this.now(), within);
    const spent = await this.store.findSpent(hash);
    return spent ? this.store.revokeWith(spent.sessionId, this.now(), within) : false;
  }

  /**
   * Refuses a token that is not the current one of any session. One that a rotation of a session
   * spent (any of them, not only the last), presented more than the grace after that rotation, is
   * a replay: whoever holds the newest tokens may be the thief, so the whole session goes (a no-op
   * when it already ended), `onReuse` committing with it.
   */
  private async refuseSpent(hash: string, now: number, options: ReuseOptions): Promise<RefreshOutcome> {
    const spent = await this.store.findSpent(hash);
    // The grace runs from this token's own rotation: two tabs refreshing at once, not a replay.
    if (spent && now - spent.spentAt > REUSE_GRACE_MS) {
      await (options.onReuse ? this.store.revokeWith(spent.sessionId, now, options.onReuse) : this.store.revoke(spent.sessionId, now));
    }
    return REFUSED;
  }

  /**
   * Gives a session a new refresh token in place of its current one (a refresh, or fresh tokens
   * after the user changed their own password or email).
   *
   * @returns `undefined` when the current token was spent or the session revoked meanwhile.
   */
  async renew(
    session: Pick<LiveSessionRow, "id" | "createdAt" | "refreshHash">,
    options: { readonly now?: number; readonly trx?: Kysely<AnyDB> } = {},
  ): Promise<IssuedRefresh | undefined> {
    const now = options.now ?? this.now();
    const refreshToken = newRefreshToken();
    const expiresAt = this.expiryOf(session.createdAt, now);
    const next = { refreshHash: hashRefreshToken(refreshToken), refreshedAt: now, expiresAt };
    const rotated = await this.store.rotate(session.id, session.refreshHash, next, options.trx ? { trx: options.trx } : {});
    return rotated ? this.issued(session.id, refreshToken, expiresAt, now) : undefined;
  }
}
