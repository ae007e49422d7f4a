import type { RunningApp } from "@domain-auth/test-support/app-server";
import { type Answer, call } from "@domain-auth/test-support/http-client";
import { safetyProblems } from "./http.js";

/** How many answers of each status, such as `{ 201: 1, 409: 19 }`. */
export function tally(answers: readonly Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** Fires `count` requests at once, alternating between `apps`, and waits for every answer. */
export async function race(apps: readonly RunningApp[], count: number, body: (index: number) => unknown, path: string): Promise<Answer[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, index) => call((apps[index % apps.length] as RunningApp).url, { path, body: body(index) })),
  );
  for (const answer of answers) {
    const problems = safetyProblems(answer);
    if (problems.length > 0) throw new Error(`unsafe answer in a race: ${answer.status} ${answer.text}: ${problems.join("; ")}`);
  }
  return answers;
}

/** The codes of the losing answers of a race (every answer but the 201s). */
export function losingCodes(answers: readonly Answer[]): string[] {
  return [...new Set(answers.filter((answer) => answer.status !== 201).map((answer) => String((answer.body as { code?: string }).code)))];
}
