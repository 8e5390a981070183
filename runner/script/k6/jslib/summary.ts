/**
 * @module
 * k6's summary helper library (`https://jslib.k6.io/k6-summary/<version>/index.js`), which scripts import
 * for `textSummary` inside `handleSummary`: the converter points that import here, so a script that
 * prints or writes k6's text summary runs without fetching anything.
 */
import { type K6SummaryData, renderK6Summary } from "../../../../results/export/k6/summary_text.ts";

/** k6's text summary of `data` (its `indent` and `enableColors` options change nothing here). */
export function textSummary(
  data: K6SummaryData,
  _options?: { indent?: string; enableColors?: boolean },
): string {
  return renderK6Summary(data);
}

export default { textSummary };
