/**
 * Habits of k6 scripts as teams write them, each run to k6's verdict: `open()` in a helper module from that
 * module's folder (a spreadsheet's byte-order mark kept), a 4xx or 5xx answer's `error_code`, each VU's own
 * copy of setup()'s data, a `::` in a group name thrown at the call, thresholds with `===` and `!=`, counts
 * given as text from `__ENV`, and k6's five console methods only. Against the built-in target; each load
 * bounded in count.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";
import { testPool } from "./fixtures/test_pool.ts";

const pool = testPool(3);

pool.test("open() in a module reads from the module's folder, and keeps a byte-order mark", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import { rows } from "./lib/data/rows.js";
export const options = { iterations: 1, thresholds: { checks: ["rate==1"] } };
export default function () {
  http.get("http://app.test/json");
  check(rows, { "two rows": (r) => r.length === 2, "mark kept": (r) => r[0].charCodeAt(0) === 0xfeff });
}
`,
      url,
      [],
      {
        files: {
          "lib/data/rows.js": 'export const rows = open("./rows.csv").split("\\r\\n").filter((l) => l);\n',
          "lib/data/rows.csv": "\ufeffid,name\r\n1,ann\r\n",
        },
      },
    );
    assertEquals(code, 0, text);
  }));

pool.test("a 4xx or 5xx answer's error_code is 1000 + its status, its error empty, as k6's", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 1, thresholds: { checks: ["rate==1"] } };
export default function () {
  check(http.get("http://app.test/no-such-page"), { "1404": (r) => r.error_code === 1404 && r.error === "" });
  check(http.get("http://app.test/error/1"), { "1500": (r) => r.error_code === 1500 });
  check(http.get("http://app.test/json"), { "0": (r) => r.error_code === 0 });
}
`,
      url,
    );
    assertEquals(code, 0, text);
  }));

pool.test("each VU changes its own copy of setup()'s data; teardown() gets setup()'s", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = {
  scenarios: { s: { executor: "per-vu-iterations", vus: 2, iterations: 3 } },
  thresholds: { checks: ["rate==1"] },
};
export function setup() { return { seen: 0 }; }
export default function (data) {
  data.seen += 1;
  http.get("http://app.test/json");
  check(data, { "this VU's count": (d) => d.seen === __ITER + 1 });
}
export function teardown(data) { check(data, { "setup's data": (d) => d.seen === 0 }); }
`,
      url,
    );
    assertEquals(code, 0, text);
  }));

pool.test("a group named with '::' throws at the call, as k6's; the request before it counts", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { group } from "k6";
export const options = { iterations: 2, thresholds: { http_reqs: ["count==2"] } };
export default function () {
  http.get("http://app.test/json");
  group("GET::/json", () => http.get("http://app.test/json"));
}
`,
      url,
    );
    assertEquals(code, 0, text);
    // Each iteration ended at the group's call: its request never went.
    assertEquals(results.runs[0].errors.script, 2, text);
  }));

pool.test("thresholds with === and != are judged; counts given as text run as numbers", () =>
  withTarget(async (url) => {
    const { code, text, stderr } = await runK6Text(
      `import http from "k6/http";
export const options = {
  vus: "2",
  iterations: "4",
  thresholds: { http_reqs: ["count===4", "count!=5"], iterations: ["count!=4"] },
};
export default function () { http.get("http://app.test/json"); }
`,
      url,
    );
    assertEquals(code, 99, text);
    ok(stderr.includes("thresholds on metrics 'iterations' have been crossed"), stderr);
  }));

pool.test("setup() calling console.table throws as under k6, whose console has five methods", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
export function setup() { console.table([{ a: 1 }]); }
export default function () { http.get("http://app.test/json"); }
`,
      url,
      ["-i", "1"],
    );
    assertEquals(code, 107, text);
    ok(text.includes("console.table is not a function"), text);
  }));
