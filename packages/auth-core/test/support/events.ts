import { expect } from "vitest";
import type { SecurityEvent } from "../../src/browser.js";
import type { Auth } from "../../src/index.js";
import type { ApiClient } from "./client.js";

/** Every event `token`'s caller may read, newest first, paged through `GET events` (with `query` as its filters). */
export async function readAllEvents(api: ApiClient, token: string, query: Record<string, string> = {}): Promise<SecurityEvent[]> {
  const events: SecurityEvent[] = [];
  let before: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, limit: "100", ...(before ? { before } : {}) });
    const page = await api.get(`/api/user/events?${params}`, { token });
    expect(page.status, page.text).toBe(200);
    events.push(...page.body.items);
    before = page.body.nextCursor;
  } while (before);
  return events;
}

/** Waits until what an instance does after its answers (events of refused attempts, `onEvent`, e-mails) is done. */
export async function settled(auth: Auth): Promise<void> {
  await auth.tools.events?.settle();
}

/** The one event of `type` among `events` that matches `where`; fails when there is none. */
export function eventOf(events: readonly SecurityEvent[], type: string, where: Partial<SecurityEvent> = {}): SecurityEvent {
  const found = events.filter(
    (event) => event.type === type && Object.entries(where).every(([key, value]) => event[key as keyof SecurityEvent] === value),
  );
  expect(found, `a ${type} event like ${JSON.stringify(where)}`).not.toHaveLength(0);
  return found[0] as SecurityEvent;
}

/** Polls `check` until it holds (an e-mail sent after the answer, say), for at most 10 s. */
export async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
