/**
 * Runs each build whose output is missing or older than its sources (auth-core and the wizard
 * through the root `npm run build`, then `next build` in apps/web); throws when one fails.
 * @returns the names of the builds that ran.
 */
export declare function ensureBuilt(): string[];

/** The newest modification time under `path` (its build folders and dependencies left out); 0 when it is missing. */
export declare function newestChange(path: string): number;
