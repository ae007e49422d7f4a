/** Why sending failed, in one line, with no link or token in it. */
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Sends after the answer: work handed to {@link MailOutbox.dispatch} starts once the request that
 * asked for it has been answered, so neither a slow mail server nor the work's own database
 * writes change how long the answer takes; a failure is logged, never answered.
 */
export class MailOutbox {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: (line: string) => void) {}

  /** Runs `work` on a later turn of the event loop; a failure becomes one log line naming `what`. */
  dispatch(what: string, work: () => Promise<void>): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.log(`domain-auth: could not send the ${what} e-mail: ${describe(error)}`))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Waits until every dispatched message is sent or failed, or `timeoutMs` passed. */
  async settle(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.pending]), timeout]);
    clearTimeout(timer);
  }
}
