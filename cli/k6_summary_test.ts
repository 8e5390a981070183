/**
 * handleSummary that never ends: an asynchronous one whose promise never settles is refused after its bound
 * (k6 bounds it to 2 minutes) instead of holding loadlab open forever after the run; one that throws is
 * named; one that answers in time is written.
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { showK6Summaries } from "./k6_summary.ts";
import type { K6SummaryData } from "../results/export/k6_summary_text.ts";

const runs = [{ run: "app/k6", data: { metrics: {} } as unknown as K6SummaryData }];

Deno.test("a handleSummary that never settles is refused after its bound; one that throws is named", async () => {
  await rejects(
    showK6Summaries({ runs, failed: 0, handle: () => new Promise(() => {}) }, 50),
    /handleSummary\(\) failed: it did not end within 0\.05 s.*results are kept/,
  );
  await rejects(
    showK6Summaries({
      runs,
      failed: 0,
      handle: () => {
        throw new Error("nope");
      },
    }, 50),
    /handleSummary\(\) failed: nope/,
  );
  const seen: unknown[] = [];
  await showK6Summaries({ runs, failed: 0, handle: (d) => (seen.push(d), undefined) }, 50);
  assertEquals(seen, [runs[0].data]);
});
