/**
 * k6 `options` as loadlab loads and thresholds: the shortcuts, every executor, thresholds in k6's syntax
 * with abortOnFail, and refusals at their paths for what loadlab cannot honour.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { k6Experiment } from "./options.ts";

const mapped = (options: Record<string, unknown>) => {
  const r = k6Experiment(options);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join("; "));
  return r.value;
};
const problems = (options: Record<string, unknown>) => {
  const r = k6Experiment(options);
  return r.ok ? [] : r.issues.map((i) => i.path);
};

Deno.test("k6's shortcuts: vus + duration, iterations, stages, and one iteration by default", () => {
  assertEquals(mapped({ vus: 5, duration: "1m30s" }).loads.k6, {
    model: "connections",
    connections: 5,
    duration: "90000ms",
  });
  assertEquals(mapped({ vus: 2, iterations: 10 }).loads.k6, { model: "count", requests: 10, connections: 2 });
  assertEquals(mapped({ stages: [{ duration: "10s", target: 5 }, { duration: "5s", target: 0 }] }).loads.k6, {
    model: "connections",
    stages: [{ duration: "1ms", target: 1 }, { duration: "10000ms", target: 5 }, {
      duration: "5000ms",
      target: 0,
    }],
    gracefulRampDown: "30s",
  });
  assertEquals(mapped({}).loads.k6, { model: "count", requests: 1, connections: 1 });
  assertEquals(mapped({ noConnectionReuse: true, insecureSkipTLSVerify: true }).loads.k6, {
    model: "count",
    requests: 1,
    connections: 1,
    connection: "per-arrival",
    tls: { insecure: true },
  });
  // k6's noVUConnectionReuse: a connection per iteration too.
  assertEquals(
    mapped({ noVUConnectionReuse: true, noConnectionReuse: false }).loads.k6.connection,
    "per-arrival",
  );
});

Deno.test("each k6 executor as a loadlab model", () => {
  const one = (sc: Record<string, unknown>) => mapped({ scenarios: { s: sc } }).loads.s;
  assertEquals(one({ executor: "constant-vus", vus: 3, duration: "10s", gracefulStop: "5s" }), {
    model: "connections",
    connections: 3,
    duration: "10000ms",
    gracefulStop: "5000ms",
  });
  const rampDown = { gracefulRampDown: "5s" };
  assertEquals(
    one({ executor: "ramping-vus", startVUs: 0, stages: [{ duration: "10s", target: 4 }], ...rampDown }),
    {
      model: "connections",
      stages: [{ duration: "10000ms", target: 4 }],
      gracefulRampDown: "5000ms",
    },
  );
  assertEquals(one({ executor: "per-vu-iterations", vus: 3, iterations: 4, maxDuration: "1m" }), {
    model: "count",
    requests: 12,
    connections: 3,
    duration: "60000ms",
    eachConnection: true,
  });
  assertEquals(one({ executor: "shared-iterations", vus: 3, iterations: 4 }), {
    model: "count",
    requests: 4,
    connections: 3,
  });
  assertEquals(
    one({ executor: "constant-arrival-rate", rate: 30, timeUnit: "1m", duration: "10s", preAllocatedVUs: 5 }),
    {
      model: "rate",
      phases: [{ duration: "10000ms", rate: 0.5 }],
      maxConnections: 5,
      preConnect: 5,
      whenBusy: "drop",
    },
  );
  assertEquals(
    one({
      executor: "ramping-arrival-rate",
      startRate: 10,
      stages: [{ duration: "5s", target: 20 }, { duration: "5s", target: 0 }],
      maxVUs: 50,
    }),
    {
      model: "rate",
      phases: [{ duration: "5000ms", rate: 10, rampTo: 20 }, { duration: "5000ms", rate: 20, rampTo: 0 }],
      maxConnections: 50,
      whenBusy: "drop",
    },
  );
  assertEquals(one({ executor: "externally-controlled", vus: 2, maxVUs: 10, duration: "1m" }), {
    model: "connections",
    connections: 2,
    duration: "60000ms",
  });
});

Deno.test("thresholds in k6's syntax, with abortOnFail and a name selector", () => {
  const { thresholds } = mapped({
    thresholds: {
      http_req_duration: ["p(95)<500", { threshold: "p(99)<1500", abortOnFail: true, delayAbortEval: "10s" }],
      "http_req_duration{name:login}": ["avg<200"],
      http_req_failed: ["rate<0.01"],
      // Named as k6 names it: the braces' inside trimmed, the rest as written.
      "http_reqs{ name: home }": ["count>1"],
    },
  });
  assertEquals(thresholds, [
    "http_req_duration: p(95)<500",
    { expr: "http_req_duration: p(99)<1500", abortOnFail: true, delayAbortEval: "10001ms" },
    "http_req_duration{name:login}: avg<200",
    "http_req_failed: rate<0.01",
    "http_reqs{name: home}: count>1",
  ]);
});

Deno.test("k6's grpc_req_duration is judged on the requests' durations (a call is a request)", () => {
  const { thresholds } = mapped({
    thresholds: {
      grpc_req_duration: ["p(95)<500"],
      "grpc_req_duration{name:main.FeatureExplorer/GetFeature}": [{
        threshold: "avg<200",
        abortOnFail: true,
      }],
    },
  });
  assertEquals(thresholds, [
    "http_req_duration: p(95)<500",
    { expr: "http_req_duration{name:main.FeatureExplorer/GetFeature}: avg<200", abortOnFail: true },
  ]);
});

Deno.test("thresholds on checks, custom metrics and iterations are judged after the run", () => {
  const { thresholds, afterRun } = mapped({
    thresholds: {
      checks: ["rate>0.9", { threshold: "rate == 1" }],
      my_trend: ["p(95)<200", "avg<100"],
      errors: ["count<10"],
      iterations: ["count>5"],
    },
  });
  assertEquals([thresholds, afterRun.map((r) => `${r.metric}: ${r.rule}`)], [[], [
    "checks: rate>0.9",
    "checks: rate == 1",
    "my_trend: p(95)<200",
    "my_trend: avg<100",
    "errors: count<10",
    "iterations: count>5",
  ]]);
});

Deno.test("abortOnFail on a custom metric is judged live, once past its delayAbortEval", () => {
  const { afterRun } = mapped({
    thresholds: {
      check_failure_rate: ["rate<0.01", {
        threshold: "rate<=0.05",
        abortOnFail: true,
        delayAbortEval: "1m30s",
      }],
      ws_msgs_received: [{ threshold: "count>0", abortOnFail: true }],
    },
  });
  assertEquals(afterRun, [
    { metric: "check_failure_rate", rule: "rate<0.01" },
    { metric: "check_failure_rate", rule: "rate<=0.05", abortOnFail: { delayMs: 90_001 } },
    { metric: "ws_msgs_received", rule: "count>0", abortOnFail: { delayMs: 0 } },
  ]);
});

Deno.test("tlsVersion and tlsCipherSuites are the load's TLS versions and suites", () => {
  const { loads } = mapped({
    insecureSkipTLSVerify: true,
    tlsVersion: { min: "tls1.0", max: "tls1.2" },
    tlsCipherSuites: ["TLS_RSA_WITH_AES_128_GCM_SHA256"],
  });
  assertEquals(loads.k6.tls, {
    insecure: true,
    minVersion: "tls1.0",
    maxVersion: "tls1.2",
    ciphers: ["TLS_RSA_WITH_AES_128_GCM_SHA256"],
  });
  assertEquals(mapped({ tlsVersion: "tls1.3" }).loads.k6.tls, { minVersion: "tls1.3", maxVersion: "tls1.3" });
  assertEquals(problems({ tlsVersion: { lowest: "tls1.2" }, tlsCipherSuites: "TLS_AES_128_GCM_SHA256" }), [
    "options.tlsVersion",
    "options.tlsCipherSuites",
  ]);
});

Deno.test("what loadlab cannot honour is refused at its path, never dropped", () => {
  assertEquals(problems({ hosts: { "a.b": "1.2.3.4:80", "c.d": 5 }, tags: { team: "x" } }), [
    'options.hosts["c.d"]',
  ]);
  assertEquals(problems({ scenarios: { a: { executor: "constant-vus", startTime: "soon" } } }), [
    "options.scenarios.a.startTime",
  ]);
  assertEquals(
    problems({
      thresholds: {
        checks: ["count>1"],
        "iteration_duration{kind:a}": ["max<1"],
        iterations: [{ threshold: "count>1", abortOnFail: true }],
      },
    }),
    [
      "options.thresholds.checks[0]",
      'options.thresholds["iteration_duration{kind:a}"]',
      "options.thresholds.iterations[0]",
    ],
  );
  assertEquals(problems({ vus: 2, duration: "1x" }), ["options.duration"]);
  // A percentile past 100 has no value to judge: it read as a failed threshold (exit 1), as k6 refuses it.
  assertEquals(problems({ thresholds: { my_trend: ["p(150)<5", "p(100)<5", "p(99.9)<5"] } }), [
    "options.thresholds.my_trend[0]",
  ]);
});

Deno.test("thresholds by any tag of the requests (their own, options.tags, a scenario's name) are kept", () => {
  const { thresholds } = mapped({
    tags: { suite: "a" },
    thresholds: {
      "http_req_duration{kind:html}": ["p(95)<500"],
      "http_reqs{scenario:browse,staticAsset:yes}": [{ threshold: "count>1", abortOnFail: true }],
    },
  });
  assertEquals(thresholds, [
    "http_req_duration{kind:html}: p(95)<500",
    { expr: "http_reqs{scenario:browse,staticAsset:yes}: count>1", abortOnFail: true },
  ]);
});

Deno.test("several scenarios are loads run together, each from its startTime; one with a startTime too", () => {
  const two = mapped({
    scenarios: {
      browse: { executor: "constant-vus", vus: 2, duration: "10s", tags: { t: "1" }, env: { A: "1" } },
      api: { executor: "shared-iterations", vus: 1, iterations: 5, startTime: "1m30s", exec: "api" },
    },
  });
  assertEquals(two.loads, {
    browse: { model: "connections", connections: 2, duration: "10000ms" },
    api: { model: "count", requests: 5, connections: 1 },
  });
  assertEquals(two.together, { browse: "0ms", api: "90000ms" });
  assertEquals(
    mapped({ scenarios: { a: { executor: "constant-vus", duration: "1s" } } }).together,
    undefined,
  );
  assertEquals(
    mapped({ scenarios: { a: { executor: "constant-vus", duration: "1s", startTime: "5s" } } }).together,
    { a: "5000ms" },
  );
});

Deno.test("a stage of 0s is k6's jump to its target: a 1 ms ramp, for VUs and for arrival rates", () => {
  assertEquals(
    mapped({ stages: [{ duration: "0s", target: 10 }, { duration: "5s", target: 10 }] }).loads.k6,
    {
      model: "connections",
      stages: [{ duration: "1ms", target: 1 }, { duration: "1ms", target: 10 }, {
        duration: "5000ms",
        target: 10,
      }],
      gracefulRampDown: "30s",
    },
  );
  const rate = mapped({
    scenarios: {
      s: {
        executor: "ramping-arrival-rate",
        startRate: 5,
        stages: [{ duration: "2s", target: 5 }, { duration: "0s", target: 50 }, {
          duration: "2s",
          target: 50,
        }],
        maxVUs: 10,
      },
    },
  }).loads.s;
  assertEquals(rate.phases, [
    { duration: "2000ms", rate: 5, rampTo: 5 },
    { duration: "1ms", rate: 5, rampTo: 50 },
    { duration: "2000ms", rate: 50, rampTo: 50 },
  ]);
});

Deno.test("setupTimeout and teardownTimeout are the experiment's, at their options' paths", () => {
  const value = mapped({ iterations: 1, setupTimeout: "90s", teardownTimeout: 2500 });
  assertEquals(value.hooksTimeouts, { setupTimeout: "90000ms", teardownTimeout: "2500ms" });
  assertEquals(problems({ iterations: 1, setupTimeout: "soon" }), ["options.setupTimeout"]);
});

Deno.test("k6's shortcuts as k6 derives them: vus alone runs once, beside scenarios ignored; conflicts refused", () => {
  assertEquals(mapped({ vus: 3 }).loads.k6, { model: "count", requests: 1, connections: 1 });
  const perVu = { executor: "per-vu-iterations", vus: 2, iterations: 3 };
  assertEquals(Object.keys(mapped({ vus: 4, scenarios: { two: perVu } }).loads), ["two"]);
  const stages = [{ duration: "1s", target: 1 }];
  assertEquals(problems({ duration: "1s", stages }), ["options.duration"]);
  assertEquals(problems({ iterations: 2, stages }), ["options.iterations"]);
  assertEquals(problems({ stages, scenarios: { two: perVu } }), ["options.stages"]);
  assertEquals(problems({ iterations: 2, stages: [] }), []);
  assertEquals(problems({ iterations: 2, scenarios: { two: perVu } }), ["options.iterations"]);
  // A shared count smaller than its VUs is invalid to k6 (104), in a scenario or the shortcuts.
  assertEquals(problems({ vus: 5, iterations: 2 }), ["options.iterations"]);
  assertEquals(problems({ scenarios: { s: { executor: "shared-iterations", vus: 3, iterations: 2 } } }), [
    "options.scenarios.s.iterations",
  ]);
});

Deno.test("each option is read by its row's kind: switches and counts typed, refused ones named, flags' ignored", () => {
  assertEquals(problems({ throw: "yes", noSetup: 1, rps: -1, batch: 2, paused: true }), [
    "options.rps",
    "options.noSetup",
    "options.throw",
  ]);
  assertEquals(problems({ paused: true, executionSegment: "0:1/2" }), [
    "options.paused",
    "options.executionSegment",
  ]);
  // `localIPs` and the run's flags are k6's flags and variables only: a script's are none of its options.
  assertEquals(mapped({ localIPs: "127.0.0.2", quiet: true, randomSeed: 1 }).ignored, [
    "localIPs",
    "quiet",
    "randomSeed",
  ]);
});
