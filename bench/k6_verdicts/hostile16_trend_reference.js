import { Trend } from "k6/metrics";
const sets = {
  two: [4.76, 65.1],
  three: [3.2, 81.5, 12.7],
  ten: [5.1, 7.9, 2.3, 44.6, 9.8, 120.4, 6.6, 15.2, 3.9, 11.1],
};
const trends = Object.fromEntries(Object.keys(sets).map((k) => [k, new Trend(`t_${k}`, true)]));
export const options = {
  iterations: 1,
  summaryTrendStats: ["min", "med", "max", "p(0)", "p(10)", "p(90)", "p(95)", "p(99.9)", "p(100)"],
};
export default function () {
  for (const [k, vs] of Object.entries(sets)) for (const v of vs) trends[k].add(v);
}
export function handleSummary(data) {
  const out = {};
  for (const k of Object.keys(sets)) out[k] = data.metrics[`t_${k}`].values;
  return { stdout: JSON.stringify(out) + "\n" };
}
