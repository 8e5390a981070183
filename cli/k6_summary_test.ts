/**
 * handleSummary that never ends: an asynchronous one whose promise never settles is refused after its bound
 * (k6 bounds it to 2 minutes) instead of holding loadlab open forever after the run; one that throws is
 * named; one that answers in time is written. A handleSummary runs in an isolate of its own, so a loop that
 * never yields is ended with that isolate, not with loadlab.
 */
import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { isolatedHandleSummary, showK6Summaries } from "./k6_summary.ts";
import type { K6SummaryData } from "../results/export/k6_summary_text.ts";

const runs = [{ run: "app/k6", data: { metrics: {} } as unknown as K6SummaryData }];

Deno.test("a handleSummary that never settles is refused after its bound; one that throws is named", async () => {
  await rejects(
    showK6Summaries({ runs, failed: 0, handle: () => new Promise(() => {}) }, [], 50),
    /handleSummary\(\) failed: it did not end within 0\.05 s.*results are kept/,
  );
  await rejects(
    showK6Summaries(
      {
        runs,
        failed: 0,
        handle: () => {
          throw new Error("nope");
        },
      },
      [],
      50,
    ),
    /handleSummary\(\) failed: nope/,
  );
  const seen: unknown[] = [];
  await showK6Summaries({ runs, failed: 0, handle: (d) => (seen.push(d), undefined) }, [], 50);
  assertEquals(seen, [runs[0].data]);
});

Deno.test("a handleSummary that never yields runs in an isolate of its own, ended at its bound", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-summary-" });
  const path = `${dir}/script.js`;
  Deno.writeTextFileSync(
    path,
    `export default () => {};
export function handleSummary(data) {
  if (data.spin) while (true) {}
  return { stdout: "runs: " + data.runs };
}
`,
  );
  try {
    const handle = (ms: number) => isolatedHandleSummary(path, ms);
    assertEquals(await handle(60_000)({ runs: 2 }), { stdout: "runs: 2" });
    // In loadlab's own process this loop held it open past its results, for ever.
    const started = performance.now();
    await rejects(handle(3_000)({ spin: true }), /did not end within 3 s \(a loop that never yields/);
    ok(performance.now() - started < 15_000, "ended near its bound");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
