// args:
// A scenario whose exec names a function the script does not export (renamed in a refactor): k6 refuses
// the test before any VU runs.
import http from "k6/http";

export const options = {
  scenarios: {
    browse: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "browse" },
    checkout: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "checkoutFlow" },
  },
};

export function browse() {
  http.get("http://127.0.0.1:18481/get?p=browse");
}

export function checkout() {
  http.get("http://127.0.0.1:18481/get?p=checkout");
}
