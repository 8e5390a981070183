/**
 * @module
 * jslib's k6-summary for `handleSummary`, served locally: `textSummary`, `humanizeValue` and `jUnit`.
 */
import { humanize, type K6SummaryData, textSummary } from "../../../../results/export/k6/summary_text.ts";

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "'": "&#39;",
  '"': "&quot;",
};
const xml = (text: string) => text.replace(/[&<>'"]/g, (c) => XML_ESCAPES[c]);

/** A failed threshold's metric, by its kind, as the library words it. */
const FAILED: Record<string, (v: Record<string, number>) => string> = {
  counter: (v) => `count: ${v.count}, rate: ${v.rate}`,
  gauge: (v) => `value: ${v.value}, min: ${v.min}, max: ${v.max}`,
  rate: (v) => `number of fails: ${v.fails}, number of passes: ${v.passes}, rate: ${v.rate}`,
  trend: (v) => `average value: ${v.avg}, min value: ${v.min}, mean value: ${v.med}, max value: ${v.max}`,
};

/** The library's `jUnit(data, { name })`: a case per threshold, a failed one with its metric's values. */
export function jUnit(data: K6SummaryData, options?: { name?: string }): string {
  let failures = 0;
  const cases = Object.entries(data.metrics).flatMap(([metric, m]) =>
    Object.entries(m.thresholds ?? {}).map(([rule, { ok }]) => {
      const head = `<testcase name="${xml(metric)} - ${xml(rule)}"`;
      return ok
        ? `${head} />`
        : (failures++, `${head}><failure message="failed, ${FAILED[m.type](m.values)}"/></testcase>`);
    })
  );
  const counts = `tests="${cases.length}" failures="${failures}"`,
    suite = xml(options?.name || "k6 thresholds");
  return `<?xml version="1.0"?>\n<testsuites ${counts}>\n<testsuite name="${suite}" ${counts}>${
    cases.join("\n")
  }` +
    "\n</testsuite >\n</testsuites >";
}

export { humanize as humanizeValue, textSummary };
export default { humanizeValue: humanize, jUnit, textSummary };
