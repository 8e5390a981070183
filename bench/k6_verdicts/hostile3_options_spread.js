// args: -e SMOKE=true -e VUS=3 -e ITERS=6
// Options spread from a shared module (numbers and booleans parsed from -e), thresholds added by a
// helper per endpoint name; undefined keys in the spread are left for k6 to ignore.
import http from "k6/http";
import { check } from "k6";
import { baseOptions, SMOKE, thresholdsFor } from "./lib/h3/options.js";

export const options = {
  ...baseOptions,
  thresholds: { ...baseOptions.thresholds, ...thresholdsFor("catalog", 2000), iterations: ["count==6"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get?page=catalog", { tags: { name: "catalog" } });
  check(res, { "catalog ok": (r) => r.status === 200, "smoke run": () => SMOKE === true }, {
    name: "catalog",
  });
}
