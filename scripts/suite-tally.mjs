// How one Vitest suite ended, from its JSON report and the exit status of its process.
// A suite counts as failed whenever its runner says so, whatever its per-test counts are.

/**
 * @typedef {{ passed: number, failed: number, skipped: number, problems: string[] }} Tally
 * @param {null | { numTotalTests: number, testResults: { name: string, status: string, message?: string,
 *   assertionResults: { status: string }[] }[] }} report the JSON report, `null` when none was written
 * @param {number | null} exitStatus the exit status of the Vitest process (`null`: killed by a signal)
 * @returns {Tally}
 */
export function tallySuite(report, exitStatus) {
  const tally = { passed: 0, failed: 0, skipped: 0, problems: [] };
  if (report === null) {
    tally.failed++;
    tally.problems.push(`wrote no report (exit status ${exitStatus})`);
    return tally;
  }
  for (const file of report.testResults) {
    const statuses = file.assertionResults.map((test) => test.status);
    const passed = statuses.filter((status) => status === "passed").length;
    tally.passed += passed;
    if (file.status === "failed") {
      // A file that failed outside its tests (a hook, an import) leaves its other tests unrun: each is a failure.
      const notPassed = statuses.length - passed;
      tally.failed += Math.max(1, notPassed);
      if (!statuses.includes("failed")) tally.problems.push(`${file.name}: ${file.message || "failed outside its tests"}`);
    } else {
      tally.failed += statuses.filter((status) => status === "failed").length;
      tally.skipped += statuses.filter((status) => status !== "passed" && status !== "failed").length;
    }
  }
  if (report.numTotalTests === 0 && tally.failed === 0) {
    tally.failed++;
    tally.problems.push("ran no test");
  }
  if (exitStatus !== 0 && tally.skipped > 0) {
    // A run that failed may have left tests unrun (a crashed worker ends its file's tests as pending):
    // none of them counts as skipped.
    tally.failed += tally.skipped;
    tally.problems.push(`${tally.skipped} tests did not run in a failed run (a crashed worker, or an error outside the tests)`);
    tally.skipped = 0;
  }
  if (exitStatus !== 0 && tally.failed === 0) {
    // Errors outside any test (an unhandled rejection, a crashed worker) fail the run but no test.
    tally.failed++;
    tally.problems.push(`the runner exited with status ${exitStatus} (an error outside the tests)`);
  }
  return tally;
}
