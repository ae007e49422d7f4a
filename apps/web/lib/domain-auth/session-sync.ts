/**
 * How the tabs of one browser, which share the session cookies, keep in step: a lock so that one
 * tab at a time refreshes the session, and a channel on which a tab tells the others what became of
 * it (signed in, renewed, signed out).
 */

/** The name of the lock every tab holds while it refreshes the session. */
export const REFRESH_LOCK = "domain-auth.refresh";
/** The name of the channel the tabs tell each other about the session on. */
export const SESSION_CHANNEL = "domain-auth.session";

/** Runs a task while holding a named lock: the part of the Web Locks API the session needs. */
export interface SessionLocks {
  request<T>(name: string, task: () => Promise<T>): Promise<T>;
}

/** Messages to and from the browser's other tabs. */
export interface SessionChannel<T> {
  post(message: T): void;
  /** Calls `receive` with each message another tab posts; returns the function that stops listening. */
  listen(receive: (message: T) => void): () => void;
}

/**
 * Locks held within one tab only: tasks under one name run one after another. What a browser
 * without `navigator.locks` gets; a tab's own calls then still share one refresh.
 */
export function tabLocks(): SessionLocks {
  const queues = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, task: () => Promise<T>): Promise<T> {
      const previous = queues.get(name) ?? Promise.resolve();
      const run = previous.then(() => task());
      const settled = run.catch(() => undefined);
      queues.set(name, settled);
      void settled.then(() => {
        if (queues.get(name) === settled) queues.delete(name);
      });
      return run;
    },
  };
}

/** The browser's locks, shared by every tab of the origin; {@link tabLocks} where the Web Locks API is missing. */
export function browserLocks(): SessionLocks {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks) return tabLocks();
  // The lock is held until the task's promise settles; the typings wrap its result in one promise more.
  return { request: <T>(name: string, task: () => Promise<T>) => locks.request(name, () => task()) as unknown as Promise<T> };
}

/** The browser's channel between the origin's tabs; one that carries nothing where `BroadcastChannel` is missing. */
export function browserChannel<T>(name: string): SessionChannel<T> {
  if (typeof BroadcastChannel === "undefined") return { post: () => {}, listen: () => () => {} };
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => channel.postMessage(message),
    listen(receive) {
      const onMessage = (event: MessageEvent) => receive(event.data as T);
      channel.addEventListener("message", onMessage);
      return () => channel.removeEventListener("message", onMessage);
    },
  };
}
