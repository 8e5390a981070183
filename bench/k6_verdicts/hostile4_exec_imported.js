// args:
// Scenario execs naming functions imported from a module and re-exported by name, options exported
// with `export { options }` after they are built; a threshold per flow tag.
import { browse, buy } from "./lib/h4/flows.js";

const options = {
  scenarios: {
    browsing: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "browse" },
    buying: { executor: "shared-iterations", vus: 1, iterations: 2, exec: "buy", startTime: "200ms" },
  },
  thresholds: {
    "http_reqs{flow:browse}": ["count==6"],
    "http_reqs{flow:buy}": ["count==2"],
    "checks{scenario:buying}": ["rate==1"],
  },
};

export { browse, buy, options };
