import type { StoredUser } from "../store/rows.js";
import type { AccountTokenKind, AccountTokenStore, TokenWithin } from "./account-tokens.js";
import type { Mailer } from "./mailer.js";
import { MailOutbox } from "./outbox.js";
import {
  type Addressee,
  invitationMessage,
  type MessageContent,
  organizationInvitationMessage,
  resetMessage,
  verificationMessage,
} from "./templates.js";

/** E-mail settings of an instance (docs/mail.md). */
export interface MailOptions {
  /** How messages leave: SMTP ({@link createSmtpMailer}) or the development console ({@link createConsoleMailer}). */
  readonly mailer: Mailer;
  /** The web app's public origin, e.g. `https://app.example.com`: every link in a message points here. */
  readonly appUrl: string;
  /** Receives one line per message that could not be sent. @default console.error */
  readonly log?: (line: string) => void;
}

/** How a link is sent: `within` commits with its token (the event that records it). */
export interface SendOptions {
  readonly within?: TokenWithin;
}

/** The page of the web app each kind of link opens. */
const PAGES: Readonly<Record<AccountTokenKind, string>> = { reset: "reset-password", invite: "reset-password", verify: "verify-email" };
const MESSAGES: Readonly<Record<AccountTokenKind, (to: Addressee, link: string) => MessageContent>> = {
  reset: resetMessage,
  invite: invitationMessage,
  verify: verificationMessage,
};
const WHAT: Readonly<Record<AccountTokenKind, string>> = { reset: "password reset", invite: "invitation", verify: "verification" };

/**
 * Sends the links of docs/mail.md: issues the token, builds the message from its template and hands
 * it to the mailer after the request that asked for it was answered (see {@link MailOutbox}); for
 * the requests anyone may make about any email, the token is written before the answer
 * ({@link MailService.sendOnRequest}).
 */
export class MailService {
  private readonly outbox: MailOutbox;
  private readonly appUrl: string;

  constructor(
    private readonly options: MailOptions,
    private readonly tokens: AccountTokenStore,
    private readonly service: string,
    private readonly now: () => number,
  ) {
    this.appUrl = options.appUrl.replace(/\/+$/, "");
    this.outbox = new MailOutbox(options.log ?? ((line) => console.error(line)));
  }

  /** The link of a token: `<APP_URL>/reset-password?token=…` (with `&invite=1` for an invitation) or `/verify-email?token=…`. */
  linkFor(kind: AccountTokenKind, token: string): string {
    const url = new URL(`${this.appUrl}/${PAGES[kind]}`);
    url.searchParams.set("token", token);
    if (kind === "invite") url.searchParams.set("invite", "1");
    return url.href;
  }

  /** Sends `user` a link of `kind` at their current email, after the answer; earlier links of that kind stop working. */
  send(kind: AccountTokenKind, user: StoredUser, options: SendOptions = {}): void {
    this.outbox.dispatch(WHAT[kind], async () => {
      const token = await this.tokens.issue(user.id, kind, user.email, this.now(), options.within);
      await this.deliver(kind, user, token);
    });
  }

  /**
   * For the requests anyone may make about any email (forgot-password, resend-verification): the
   * link of `kind` for `user` is written before the answer and only sent after it; without a `user`
   * an unusable token row is written the same way and nothing is sent. Both kinds of request make
   * the same database write at the same moment; all that is left after the answer is handing the
   * message to the mailer, which for SMTP costs this thread a message to the mail thread.
   * `within` commits with the token row either way.
   */
  async sendOnRequest(kind: AccountTokenKind, user: StoredUser | undefined, options: SendOptions = {}): Promise<void> {
    if (!user) {
      await this.tokens.issueUnusable(kind, this.now(), options.within);
      return;
    }
    const token = await this.tokens.issue(user.id, kind, user.email, this.now(), options.within);
    this.outbox.dispatch(WHAT[kind], () => this.deliver(kind, user, token));
  }

  /**
   * Sends an organization invitation's link, `<APP_URL>/invitations?token=…`, after the answer
   * (docs/organizations.md#invitations).
   */
  sendOrganizationInvitation(email: string, token: string, details: { readonly role: string; readonly lifetimeSeconds: number }): void {
    this.outbox.dispatch("organization invitation", async () => {
      const url = new URL(`${this.appUrl}/invitations`);
      url.searchParams.set("token", token);
      const content = organizationInvitationMessage({ service: this.service, email }, url.href, details);
      await this.options.mailer.send({ to: email, ...content, link: url.href });
    });
  }

  private async deliver(kind: AccountTokenKind, user: StoredUser, token: string): Promise<void> {
    const link = this.linkFor(kind, token);
    const content = MESSAGES[kind]({ service: this.service, email: user.email }, link);
    await this.options.mailer.send({ to: user.email, ...content, link });
  }

  /** Waits for the messages under way (at most `timeoutMs`), then closes the mailer. */
  async close(timeoutMs = 5_000): Promise<void> {
    await this.outbox.settle(timeoutMs);
    await this.options.mailer.close?.();
  }
}
