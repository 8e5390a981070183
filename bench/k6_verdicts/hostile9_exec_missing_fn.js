// A scenario's exec names a function the script never exports: k6 refuses it before the load.
import http from "k6/http";

export const options = {
  scenarios: {
    browse: { executor: "shared-iterations", iterations: 2, exec: "browse" },
    checkout: { executor: "shared-iterations", iterations: 2, exec: "checkout" },
  },
};

export function browse() {
  http.get("http://127.0.0.1:18481/get?flow=browse");
}

// deno-lint-ignore no-unused-vars -- written but not exported, as the scenario names it
function checkout() {
  http.post("http://127.0.0.1:18481/post", "cart");
}
