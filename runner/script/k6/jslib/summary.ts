/**
 * @module
 * k6's summary helper library (jslib's k6-summary) for `textSummary` in `handleSummary`, served locally.
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
