// args: -i 3
// handleSummary in TypeScript: each counter's rate is its count over state.testRunDurationMs (setup in).
import http from "k6/http";
import { sleep } from "k6";
import { Counter } from "k6/metrics";

const orders = new Counter("orders");

interface Metric {
  values: Record<string, number>;
}

export function setup(): void {
  sleep(1);
}

export default function (): void {
  http.get("http://127.0.0.1:18481/get");
  orders.add(2);
}

export function handleSummary(
  data: { metrics: Record<string, Metric>; state: { testRunDurationMs: number } },
) {
  const seconds = data.state.testRunDurationMs / 1000;
  const line = (name: string): string => {
    const { count, rate } = data.metrics[name].values;
    return `@ ${name} count ${count} rate over the run ${Math.abs(rate - count / seconds) <= 0.1 * rate}`;
  };
  return { stdout: ["http_reqs", "iterations", "orders"].map(line).join("\n") + "\n" };
}
