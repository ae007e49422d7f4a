/** Entity names: PascalCase identifiers. */
export const ENTITY_NAME = /^[A-Z][A-Za-z0-9]*$/;
/** Field names, role names and other identifiers. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The URL segment of an entity: its name in kebab-case, acronyms split as words.
 *
 * @example toSegment("StaffMember") // "staff-member"
 * @example toSegment("APIKey") // "api-key"
 */
export function toSegment(entityName: string): string {
  return entityName
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase();
}

/** The SQL table name of an entity: its segment in snake_case. */
export function toTableName(entityName: string): string {
  return toSegment(entityName).replaceAll("-", "_");
}

/** Optimal string alignment distance: edits, with a swap of two neighbours counting as one. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The closest of `candidates` to a misspelt `word`, when one is close enough to be a likely typo. */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(1, Math.floor(word.length / 3));
  return bestDistance <= tolerance ? best : undefined;
}

/** ` (did you mean 'X'?)` when one of `candidates` is a likely typo of `word`, else `""`. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closestMatch(word, candidates);
  return match ? ` (did you mean '${match}'?)` : "";
}
