import { expect } from "vitest";
import type { ApiClient } from "./client.js";

/** The ids of a list's items, in order. */
export const ids = (items: readonly { id: string }[]): string[] => items.map((item) => item.id);

/** Every page of the list at `path`, following each page's `nextCursor` from the first (each page a 200). */
export async function walkPages<T extends { id: string }>(api: ApiClient, path: string, token?: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const page = await api.get(`${path}${cursor ? `${separator}after=${cursor}` : ""}`, token ? { token } : {});
    expect(page.status, page.text).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}
