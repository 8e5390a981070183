/**
 * @module
 * k6's `--summary-export` file (k6 v1's legacy shape) from a run's k6 summary data. Pure.
 */
import type { K6Check, K6Group, K6SummaryData } from "./summary_text.ts";

type ExportedGroup = Omit<K6Group, "groups" | "checks"> & {
  groups: Record<string, ExportedGroup>;
  checks: Record<string, K6Check>;
};

/** The legacy export of `data`, indented by 4 as k6 writes it. */
export function k6SummaryExport(data: K6SummaryData): string {
  const metrics: Record<string, Record<string, unknown>> = {};
  for (const [name, metric] of Object.entries(data.metrics)) {
    const stats = data.options.summaryTrendStats;
    // A trend's values are the summary's stats alone (the data may hold more for thresholds).
    const values: Record<string, unknown> = metric.type === "trend"
      ? Object.fromEntries(Object.entries(metric.values).filter(([stat]) => stats.includes(stat)))
      : { ...metric.values };
    if (metric.type === "rate" && "rate" in values) {
      values.value = values.rate;
      delete values.rate;
    }
    const rules = Object.entries(metric.thresholds ?? {});
    if (rules.length > 0) values.thresholds = Object.fromEntries(rules.map(([rule, t]) => [rule, !t.ok]));
    metrics[name] = values;
  }
  return JSON.stringify({ root_group: byName(data.root_group), metrics }, null, 4);
}

/** A group whose `groups` and `checks` lists are objects by name, as k6's legacy summary keys them. */
function byName(group: K6Group): ExportedGroup {
  // One check per name in a group, as k6 counts a name checked at several places.
  const checks: Record<string, K6Check> = {};
  for (const c of group.checks) {
    const had = checks[c.name];
    checks[c.name] = had === undefined
      ? { ...c }
      : { ...had, passes: had.passes + c.passes, fails: had.fails + c.fails };
  }
  return { ...group, groups: Object.fromEntries(group.groups.map((g) => [g.name, byName(g)])), checks };
}
