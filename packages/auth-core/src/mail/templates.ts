import { ACCOUNT_TOKEN_LIFETIMES } from "./lifetimes.js";

/**
 * What a message names: the service and the address it goes to. Nothing a user typed (a name,
 * any other field) goes into a message: whoever registers someone else's address would otherwise
 * put their own words and links into a genuine message to that person.
 */
export interface Addressee {
  /** The service's name (the domain's `name`). */
  readonly service: string;
  readonly email: string;
}

/** A message's words: subject, plain text and HTML. */
export interface MessageContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** HTML-escapes a value from a user (or anything not written here) for text and attribute positions. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A lifetime in seconds as words: "30 minutes", "24 hours", "7 days". */
export function describeLifetime(seconds: number): string {
  const [count, unit] =
    seconds >= 2 * 86_400 && seconds % 86_400 === 0
      ? [seconds / 86_400, "day"]
      : seconds >= 3600 && seconds % 3600 === 0
        ? [seconds / 3600, "hour"]
        : [Math.max(1, Math.round(seconds / 60)), "minute"];
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** One message: a greeting, what happened, one button-like link, and what to do if it was not you. */
function compose(to: Addressee, subject: string, lines: { intro: string; action: string; outro: string }, link: string): MessageContent {
  const greeting = "Hello,";
  const text = [greeting, "", lines.intro, "", `${lines.action}: ${link}`, "", lines.outro, "", `— ${to.service}`].join("\n");
  const html = [
    "<!doctype html>",
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(lines.intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(lines.action)}</a></p>`,
    `<p style="color: #555">${escapeHtml(lines.outro)}</p>`,
    `<p>— ${escapeHtml(to.service)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}

/** The password reset message. */
export function resetMessage(to: Addressee, link: string): MessageContent {
  return compose(
    to,
    `Reset your ${to.service} password`,
    {
      intro: `Someone asked to reset the password of your ${to.service} account. The link works once, for ${describeLifetime(ACCOUNT_TOKEN_LIFETIMES.reset)}.`,
      action: "Choose a new password",
      outro: "If you did not ask for this, ignore this message: your password stays as it is.",
    },
    link,
  );
}

/** The invitation message. */
export function invitationMessage(to: Addressee, link: string): MessageContent {
  return compose(
    to,
    `You are invited to ${to.service}`,
    {
      intro: `An administrator created a ${to.service} account for ${to.email}. Choose a password to start; the link works once, for ${describeLifetime(ACCOUNT_TOKEN_LIFETIMES.invite)}.`,
      action: "Choose your password",
      outro: "If you did not expect this, ignore this message.",
    },
    link,
  );
}

/** The address confirmation message. */
export function verificationMessage(to: Addressee, link: string): MessageContent {
  return compose(
    to,
    `Confirm your ${to.service} email address`,
    {
      intro: `Confirm that ${to.email} is your address for ${to.service}. The link works once, for ${describeLifetime(ACCOUNT_TOKEN_LIFETIMES.verify)}.`,
      action: "Confirm my email address",
      outro: "If you did not sign up, ignore this message.",
    },
    link,
  );
}

/**
 * An invitation into an organization (docs/organizations.md#invitations): the role, a word of
 * `domain.yaml`, and never the organization's name, which its members typed.
 */
export function organizationInvitationMessage(
  to: Addressee,
  link: string,
  details: { role: string; lifetimeSeconds: number },
): MessageContent {
  return compose(
    to,
    `You are invited to join a team on ${to.service}`,
    {
      intro: `A member of an organization on ${to.service} invited ${to.email} to join it as ${details.role}. Sign in or create your account with this address, then accept; the link works once, for ${describeLifetime(details.lifetimeSeconds)}.`,
      action: "See the invitation",
      outro: "If you did not expect this, ignore this message: nothing happens unless you accept.",
    },
    link,
  );
}
