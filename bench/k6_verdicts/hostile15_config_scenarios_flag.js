// args: --config data/h15_scenarios.json -i 3
// Scenarios from a --config file with -i on the command line: the flag's shared iterations replace them.
import http from "k6/http";

export const options = {
  thresholds: { iterations: ["count==3"], "iterations{scenario:default}": ["count==3"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
