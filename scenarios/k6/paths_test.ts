import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { k6Experiment } from "./options.ts";

/** The issues at the experiment's `paths` as the options' paths k6Experiment(options) gives back. */
function told(options: Record<string, unknown>, issues: Array<[string, string]>): Array<[string, string]> {
  const mapped = k6Experiment(options);
  if (!mapped.ok) throw new Error(JSON.stringify(mapped.issues));
  return mapped.value.paths.issues(issues.map(([path, message]) => ({ path, message })))
    .map((i) => [i.path, i.message]);
}

Deno.test("the shortcut options: each load field and threshold is told at the option it came from", () => {
  const options = {
    vus: 0,
    stages: [{ duration: "1s", target: 2 }, { duration: "0s", target: 3 }],
    noConnectionReuse: true,
    thresholds: { http_req_failed: ["rate<0.1"], "http_req_duration{name:a}": ["p(95)<1", "bad"] },
  };
  assertEquals(
    told(options, [
      ["loads.k6.stages[1].duration", "stage duration must be > 0"],
      ["thresholds[2]", "not understood"],
      ["loads.k6.connection", "connection is not allowed here"],
      ["loads.k6.model", "model is wrong"],
      ["targets.app.url", "not a URL"],
    ]),
    [
      ["options.stages[1].duration", "stage duration must be > 0"],
      ['options.thresholds["http_req_duration{name:a}"][1]', "not understood"],
      ["options.noConnectionReuse", "noConnectionReuse is not allowed here"],
      // No one option: the nearest holding it, the message's word kept.
      ["options", "model is wrong"],
      ["targets.app.url", "not a URL"],
    ],
  );
  assertEquals(
    told({ vus: 2, duration: "1s" }, [
      ["loads.k6.connections", "connections must be >= 1"],
      ["loads.k6.connections", "2 needs 2 sockets; use at most connections: 1 (in run app/k6)"],
    ]),
    [
      ["options.vus", "vus must be >= 1"],
      ["options.vus", "2 needs 2 sockets; use at most vus: 1"],
    ],
  );
});

Deno.test("scenarios: each load's fields at its scenario's options; loads run together at the scenarios", () => {
  const options = {
    scenarios: {
      a: { executor: "ramping-vus", startVUs: 1, stages: [{ duration: "0s", target: 1 }] },
      b: { executor: "constant-arrival-rate", rate: 5, duration: "1s", preAllocatedVUs: 1, maxVUs: 2 },
      c: { executor: "shared-iterations", vus: 1, iterations: 3, maxDuration: "1s" },
    },
  };
  assertEquals(
    told(options, [
      ["loads.a.stages[0].target", "x"],
      ["loads.a.stages[1].duration", "x"],
      ["loads.b.phases[0].rate", "x"],
      ["loads.b.maxConnections", "x"],
      ["loads.c.duration", "x"],
      ["loads.c.requests", "x"],
      ['loads["a+b+c"].duration', "duration must be > 0 (in run app/a+b+c)"],
      ["together.b", "x"],
    ]),
    [
      ["options.scenarios.a.startVUs", "x"],
      ["options.scenarios.a.stages[0].duration", "x"],
      ["options.scenarios.b.rate", "x"],
      ["options.scenarios.b.maxVUs", "x"],
      ["options.scenarios.c.maxDuration", "x"],
      ["options.scenarios.c.iterations", "x"],
      ["options.scenarios", "duration must be > 0"],
      ["options.scenarios.b.startTime", "x"],
    ],
  );
});

Deno.test("an option behind several fields (tlsVersion: each load's min and max) is told once", () => {
  const options = {
    tlsVersion: "tls9",
    scenarios: {
      a: { executor: "constant-vus", vus: 1, duration: "1s" },
      b: { executor: "constant-vus", vus: 1, duration: "1s" },
    },
  };
  const issues = ["a", "b"].flatMap((load) =>
    ["minVersion", "maxVersion"].map((f): [string, string] => [`loads.${load}.tls.${f}`, "not tls9"])
  );
  assertEquals(told(options, issues), [["options.tlsVersion", "not tls9"]]);
});
