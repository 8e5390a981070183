// args: -u 1 -i 3
// Requests sent without an await, then a throw: k6 ends the iteration at once and cuts what is in flight;
// without the throw (the last iteration) the iteration waits for them and counts them.
import http from "k6/http";
import exec from "k6/execution";

export const options = {
  thresholds: {
    "http_reqs{name:left}": ["count==2"],
    "http_reqs{name:cut}": ["count==0"],
    iterations: ["count==3"],
  },
};

export default function () {
  const last = exec.vu.iterationInScenario === 2;
  const name = last ? "left" : "cut";
  http.asyncRequest("GET", "http://127.0.0.1:18481/delay/1", null, { tags: { name } });
  http.asyncRequest("GET", "http://127.0.0.1:18482/get", null, { tags: { name } });
  if (!last) throw new Error("ends the iteration with two requests in flight");
}
