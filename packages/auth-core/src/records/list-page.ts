/** How many records a page of a list holds (docs/api.md#lists): `limit` from `min` to `max`, `default` when absent. */
export const LIST_PAGE_LIMITS = { default: 20, min: 1, max: 100 } as const;
