// args: -i 2
// handleSummary's thresholds: each rule's ok, a submetric's own entry, a crossed one; the run exits 99.
import http from "k6/http";

export const options = {
  thresholds: { http_reqs: ["count==2", "count==3"], "http_req_duration{name:home}": ["max<9000"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { name: "home" } });
}

export function handleSummary(data) {
  // Sorted: k6 builds the object from a Go map, in no set order.
  const t = (name) => JSON.stringify(Object.entries(data.metrics[name].thresholds).sort());
  const sub = data.metrics["http_req_duration{name:home}"];
  return {
    stdout:
      `@ reqs ${t("http_reqs")}\n@ sub ${t("http_req_duration{name:home}")} ${sub.type} ${sub.contains}\n` +
      `@ plain ${data.metrics.http_req_duration.thresholds === undefined}\n`,
  };
}
