/** What every message names: the service and the person it is for. */
export interface Addressee {
  /** The service's name (the domain's `name`). */
  readonly service: string;
  readonly email: string;
  /** The user's `name` field when they have one. */
  readonly name?: string | null;
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

/** One message: a greeting, what happened, one button-like link, and what to do if it was not you. */
function compose(to: Addressee, subject: string, lines: { intro: string; action: string; outro: string }, link: string): MessageContent {
  const greeting = `Hello ${to.name?.trim() || to.email},`;
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

/** The password reset message (the link lives 30 minutes). */
export function resetMessage(to: Addressee, link: string): MessageContent {
  return compose(
    to,
    `Reset your ${to.service} password`,
    {
      intro: `Someone asked to reset the password of your ${to.service} account. The link works once, for 30 minutes.`,
      action: "Choose a new password",
      outro: "If you did not ask for this, ignore this message: your password stays as it is.",
    },
    link,
  );
}

/** The invitation message (the link lives 7 days). */
export function invitationMessage(to: Addressee, link: string): MessageContent {
  return compose(
    to,
    `You are invited to ${to.service}`,
    {
      intro: `An administrator created a ${to.service} account for ${to.email}. Choose a password to start; the link works once, for 7 days.`,
      action: "Choose your password",
      outro: "If you did not expect this, ignore this message.",
    },
    link,
  );
}

/** The address confirmation message (the link lives 24 hours). */
export function verificationMessage(to: Addressee, link: string): MessageContent {
  return compose(
    to,
    `Confirm your ${to.service} email address`,
    {
      intro: `Confirm that ${to.email} is your address for ${to.service}. The link works once, for 24 hours.`,
      action: "Confirm my email address",
      outro: "If you did not sign up, ignore this message.",
    },
    link,
  );
}
