/** Prints one figures line of the hardening run, so the run shows what it proved. */
export function printFigures(file: string, figures: Readonly<Record<string, number | string>>): void {
  const parts = Object.entries(figures).map(([name, value]) => `${name} = ${value}`);
  console.log(`[hardening] ${file}: ${parts.join(", ")}`);
}
