import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { runLabels } from "./export_point.ts";

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

Deno.test("two sweep parameters that clean to one label name each keep their own label", () => {
  const labels = runLabels({
    experiment: "e",
    name: "app/once/query.a-b=1/query.a_b=x",
    sweeps: [{ parameter: "query.a-b", value: "1" }, { parameter: "query.a_b", value: "x" }],
  });
  assertEquals(labels.sweep_query_a_b, "1");
  assertEquals(labels.U__sweep__query_2e_a__b, "x");
  assertEquals(Object.keys(labels).every((k) => LABEL_NAME.test(k)), true);
  // A single sweep keeps the plain name dashboards already query.
  const one = runLabels({ experiment: "e", name: "r", sweeps: [{ parameter: "load.rate", value: 5 }] });
  assertEquals(one.sweep_load_rate, "5");
});
