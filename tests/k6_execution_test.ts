/**
 * k6/execution's numbers across the whole test, through `loadlab run` against the built-in target: each
 * iteration's number among its scenario's (every VU and worker counted together) and the iterations the
 * run completed, read by a second scenario started later. A few iterations each.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` child and its scenarios' start times: three at once. */
const pool = testPool(3);

pool.test("exec.scenario.iterationInTest numbers a scenario's iterations across its VUs; iterationsCompleted is the run's", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
import { Trend } from "k6/metrics";
const seenA = new Trend("seen_a"), seenB = new Trend("seen_b"), doneB = new Trend("done_before_b");
export const options = {
  scenarios: {
    a: { executor: "shared-iterations", vus: 3, iterations: 12, exec: "a" },
    b: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "b", startTime: "3s" },
  },
};
export function a() {
  seenA.add(exec.scenario.iterationInTest);
  http.get("http://app.test/json");
}
export function b() {
  seenB.add(exec.scenario.iterationInInstance);
  doneB.add(exec.instance.iterationsCompleted);
  http.get("http://app.test/json");
}
`,
      url,
      ["-q", "--summary-export", "export.json", "--summary-trend-stats", "avg,min,max,count"],
    );
    assertEquals(run.code, 0, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    // 0 to 11 once each, whichever of the three VUs ran it.
    assertEquals([m.seen_a.count, m.seen_a.min, m.seen_a.max, m.seen_a.avg], [12, 0, 11, 5.5]);
    assertEquals([m.seen_b.count, m.seen_b.min, m.seen_b.max, m.seen_b.avg], [6, 0, 5, 2.5]);
    // Scenario a's 12 ended before b started (on other workers); b's own count as they end.
    ok(m.done_before_b.min >= 12 && m.done_before_b.max <= 17, JSON.stringify(m.done_before_b));
  }));

pool.test("k6 VUs: ids unique across scenarios; an arrival-rate scenario reuses its VUs, their __ITER counting on", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
import { Counter, Trend } from "k6/metrics";
const seen = new Counter("seen"), iter = new Trend("iter_a");
const ids = [1, 2, 3, 4, 5, 6, 7, 8];
export const options = {
  scenarios: {
    a: { executor: "constant-arrival-rate", rate: 20, timeUnit: "1s", duration: "1s", preAllocatedVUs: 2, exec: "a" },
    b: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "b" },
  },
  thresholds: Object.fromEntries(
    ["a", "b"].flatMap((sc) => ids.map((id) => [\`seen{sc:\${sc},id:\${id}}\`, ["count>=0"]])),
  ),
};
export function a() {
  seen.add(1, { sc: "a", id: String(__VU) });
  iter.add(__ITER);
  http.get("http://app.test/json");
}
export function b() {
  seen.add(1, { sc: "b", id: String(exec.vu.idInTest) });
  http.get("http://app.test/json");
}
`,
      url,
      ["-q", "--summary-export", "export.json"],
    );
    assertEquals(run.code, 0, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    const idsOf = (sc: string) =>
      [1, 2, 3, 4, 5, 6, 7, 8].filter((id) => m[`seen{sc:${sc},id:${id}}`]?.count > 0);
    const [a, b] = [idsOf("a"), idsOf("b")];
    // Every iteration's VU among ids 1 to 8, none in both scenarios. An arrival that finds a's two VUs busy
    // is dropped, as k6 drops it (a busy machine drops some): those a ran and those dropped make its 20.
    const ranA = a.reduce((n, id) => n + m[`seen{sc:a,id:${id}}`].count, 0);
    const droppedA = m.dropped_iterations?.count ?? 0;
    assertEquals([m.seen.count, ranA + droppedA], [ranA + 6, 20], JSON.stringify([a, m.dropped_iterations]));
    assertEquals(b.length, 2, JSON.stringify(b));
    // per-vu-iterations: each of b's two VUs runs exactly its 3, never a faster VU's share.
    assertEquals(b.map((id) => m[`seen{sc:b,id:${id}}`].count), [3, 3], JSON.stringify(b));
    ok(a.every((id) => !b.includes(id)), `a ${a}, b ${b}`);
    ok(m.iter_a.max >= 1, JSON.stringify(m.iter_a));
  }));

pool.test("exec.scenario.executor and exec.test.options are k6's consolidated ones, flags' load included", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
import exec from "k6/execution";
import { Counter } from "k6/metrics";
const seen = new Counter("seen");
export const options = { scenarios: { api: { executor: "per-vu-iterations", vus: 1, iterations: 2 } } };
export default function () {
  const sc = exec.test.options.scenarios[exec.scenario.name];
  seen.add(1, { executor: exec.scenario.executor, iterations: String(sc.iterations) });
  http.get("http://app.test/json");
}
`;
    const thresholds = (executor: string, iterations: number) =>
      `{"thresholds":{"seen{executor:${executor},iterations:${iterations}}":["count==${iterations}"]}}`;
    const own = await runK6Text(
      script.replace("options = {", `options = {...${thresholds("per-vu-iterations", 2)},`),
      url,
    );
    assertEquals(own.code, 0, own.text);
    // k6's -u/-i replace the scenarios with its default: shared-iterations of 3.
    const flags = await runK6Text(
      script.replace("options = {", `options = {...${thresholds("shared-iterations", 3)},`),
      url,
      ["-u", "1", "-i", "3"],
    );
    assertEquals(flags.code, 0, flags.text);
  }));

pool.test("exec.instance.vusInitialized is the scenarios' VUs; scenario.startTime and the run's duration", () =>
  withTarget(async (url) => {
    const before = Date.now();
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
import { Trend } from "k6/metrics";
const inited = new Trend("inited"), since = new Trend("since_start"), ran = new Trend("ran");
export const options = {
  scenarios: {
    a: { executor: "per-vu-iterations", vus: 2, iterations: 2 },
    b: { executor: "ramping-vus", startVUs: 1, stages: [{ duration: "1s", target: 3 }] },
  },
};
export default function () {
  inited.add(exec.instance.vusInitialized);
  since.add(exec.scenario.startTime);
  ran.add(exec.instance.currentTestRunDuration);
  http.get("http://app.test/json");
}
`,
      url,
      ["-q", "--summary-export", "export.json", "--summary-trend-stats", "min,max"],
    );
    assertEquals(run.code, 0, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    assertEquals([m.inited.min, m.inited.max], [5, 5]);
    ok(m.since_start.min >= before && m.since_start.max <= Date.now(), JSON.stringify(m.since_start));
    ok(m.ran.min >= 0 && m.ran.max <= Date.now() - before, JSON.stringify(m.ran));
  }));

pool.test("exec.vu.tags set in an iteration tag the VU's later samples; checks are judged by their own tags", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";
export const options = {
  thresholds: {
    "http_reqs{tier:gold}": ["count==3"],
    "http_reqs{tier:silver}": ["count==0"],
    "checks{kind:smoke}": ["rate==1"],
    "checks{kind:deep}": ["rate==0"],
    "checks{tier:gold}": ["rate==0.5"],
  },
};
export default function () {
  http.get("http://app.test/");
  exec.vu.tags.tier = "gold";
  const res = http.get("http://app.test/json");
  check(res, { "ok": (r) => r.status === 200 }, { kind: "smoke" });
  check(res, { "never": () => false }, { kind: "deep" });
  delete exec.vu.tags.tier;
  check(res, { "untagged": () => false });
}
`,
      url,
      ["-q", "-u", "1", "-i", "3", "--summary-export", "export.json"],
    );
    ok(run.code === 0 || run.code === 99, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    const failed = Object.entries(m).flatMap(([name, v]) =>
      Object.entries((v as { thresholds?: Record<string, boolean> }).thresholds ?? {})
        .filter(([, f]) => f).map(([rule]) => `${name}: ${rule}`)
    );
    assertEquals(failed, []);
    assertEquals(run.code, 0, run.text);
  }));

pool.test("k6's request phases: waiting holds the server's delay, connecting only on the request that dialed", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = {
  thresholds: {
    http_req_waiting: ["min>=150"],
    "http_req_waiting{name:slow}": ["min>=150"],
    http_req_receiving: ["max<150"],
    http_req_sending: ["max<150"],
    http_req_connecting: ["med==0", "max>0"],
    http_req_blocked: ["max>0"],
    http_req_tls_handshaking: ["max==0"],
  },
};
export default function () {
  const res = http.get("http://app.test/user?delayMs=200", { tags: { name: "slow" } });
  const t = res.timings;
  check(t, {
    "duration is its phases": () => Math.abs(t.duration - t.sending - t.waiting - t.receiving) < 1e-6,
    "waited the delay": () => t.waiting >= 150,
    "dialed once": () => (__ITER === 0) === (t.connecting > 0),
  });
}
`,
      url,
      ["-q", "-u", "1", "-i", "4", "--summary-export", "export.json"],
    );
    ok(run.code === 0 || run.code === 99, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    const failed = Object.entries(m).flatMap(([name, v]) =>
      Object.entries((v as { thresholds?: Record<string, boolean> }).thresholds ?? {})
        .filter(([, f]) => f).map(([rule]) => `${name}: ${rule}`)
    );
    assertEquals(failed, []);
    assertEquals(m.checks.fails, 0, JSON.stringify(m.checks));
    assertEquals(run.code, 0, run.text);
  }));

pool.test("exec.instance.vusActive counts the run's VUs running, across workers; an arrival rate's in iteration", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
import exec from "k6/execution";
import { Trend } from "k6/metrics";
const closedSeen = new Trend("active_closed"), openSeen = new Trend("active_open");
export const options = {
  scenarios: {
    closed: { executor: "constant-vus", vus: 3, duration: "1200ms", exec: "closed" },
    open: {
      executor: "constant-arrival-rate", rate: 4, timeUnit: "1s", duration: "1s", preAllocatedVUs: 3,
      startTime: "2500ms", exec: "open",
    },
  },
};
export function closed() {
  // Once every VU has started (each starts within ms of the others), all three are active.
  if (__ITER > 0) closedSeen.add(exec.instance.vusActive);
  http.get("http://app.test/json");
  sleep(0.2);
}
export function open() {
  openSeen.add(exec.instance.vusActive);
  http.get("http://app.test/json");
}
`,
      url,
      ["-q", "--summary-export", "export.json", "--summary-trend-stats", "min,max,count"],
    );
    assertEquals(run.code, 0, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    assertEquals([m.active_closed.min, m.active_closed.max], [3, 3], JSON.stringify(m.active_closed));
    // The closed VUs are gone; an arrival's VU is active in its iteration only (iterations do not overlap).
    ok(
      m.active_open.count >= 3 && m.active_open.min === 1 && m.active_open.max <= 2,
      JSON.stringify(m.active_open),
    );
  }));

pool.test("exec.scenario.progress: iterations ended over the total, or time over the stages' duration", () =>
  withTarget(async (url) => {
    const script = (scenario: string) =>
      `import http from "k6/http";
import exec from "k6/execution";
import { Trend } from "k6/metrics";
const progress = new Trend("progress");
export const options = { scenarios: { main: ${scenario} } };
export default function () {
  progress.add(exec.scenario.progress);
  http.get("http://app.test/json");
}
`;
    const stats = ["-q", "--summary-export", "export.json", "--summary-trend-stats", "min,max,count"];
    const iters = await runK6Text(
      script(`{ executor: "per-vu-iterations", vus: 1, iterations: 4 }`),
      url,
      stats,
    );
    assertEquals(iters.code, 0, iters.text);
    const a = JSON.parse(Deno.readTextFileSync(`${iters.dir}/export.json`)).metrics.progress;
    // One VU: each iteration reads the ones before it ended, 0/4 to 3/4.
    assertEquals([a.count, a.min, a.max], [4, 0, 0.75]);
    const timed = await runK6Text(
      script(
        `{ executor: "ramping-vus", startVUs: 1, stages: [{ duration: "1s", target: 1 }, ` +
          `{ duration: "1s", target: 1 }] }`,
      ),
      url,
      stats,
    );
    assertEquals(timed.code, 0, timed.text);
    const b = JSON.parse(Deno.readTextFileSync(`${timed.dir}/export.json`)).metrics.progress;
    // Over 2 s of stages: the first iteration near 0, the last past the first stage's second.
    ok(b.min >= 0 && b.min < 0.5 && b.max > 0.5 && b.max <= 1, JSON.stringify(b));
  }));

pool.test("several scenarios start together once the slowest is prepared: an arrival rate drops none", () =>
  withTarget(async (url) => {
    // Init code of 2.5 s in every worker: each scenario's workers are ready well past any fixed lead.
    const run = await runK6Text(
      `import http from "k6/http";
const until = Date.now() + 2500;
while (Date.now() < until) { /* a slow import */ }
export const options = {
  scenarios: {
    shared: { executor: "shared-iterations", vus: 2, iterations: 6, exec: "browse" },
    rate: {
      executor: "constant-arrival-rate", rate: 4, timeUnit: "1s", duration: "2s", preAllocatedVUs: 2, exec: "api",
    },
  },
  thresholds: { "iterations{scenario:rate}": ["count>=7"], dropped_iterations: ["count<=1"] },
};
export function browse() { http.get("http://app.test/json"); }
export function api() { http.get("http://app.test/json"); }
`,
      url,
      ["-q", "--summary-export", "export.json"],
    );
    assertEquals(run.code, 0, run.text);
  }));

pool.test("an arrival no preallocated VU is free for is dropped while a VU up to maxVUs starts for later ones", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
import { Trend } from "k6/metrics";
const first = new Trend("first_vu1"), second = new Trend("first_vu2");
export const options = {
  scenarios: {
    a: { executor: "constant-arrival-rate", rate: 5, timeUnit: "1s", duration: "1s", preAllocatedVUs: 1, maxVUs: 2 },
  },
};
export default function () {
  (__VU === 1 ? first : second).add(Date.now());
  http.get("http://app.test/json");
  sleep(1);
}
`,
      url,
      ["-q", "--summary-export", "export.json", "--summary-trend-stats", "min,count"],
    );
    assertEquals(run.code, 0, run.text);
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    // Arrivals 200 ms apart, each iteration 1 s: the one at 200 ms finds VU 1 busy and is dropped while VU 2
    // starts, so VU 2's first is the arrival at 400 ms or a later one; the 5 arrivals ran or were dropped.
    const text = JSON.stringify([m.first_vu1, m.first_vu2, m.dropped_iterations]);
    ok(m.first_vu2.min - m.first_vu1.min >= 350, text);
    assertEquals(m.first_vu1.count + m.first_vu2.count + m.dropped_iterations.count, 5, text);
  }));

pool.test("exec.instance.iterationsInterrupted counts iterations the duration's end cut, not those that threw", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
import { sleep } from "k6";
import { Trend } from "k6/metrics";
const cut = new Trend("cut_seen"), done = new Trend("done_seen");
export const options = {
  scenarios: {
    slow: { executor: "constant-vus", vus: 2, duration: "1s", gracefulStop: "0s", exec: "slow" },
    throws: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "throws" },
    later: { executor: "per-vu-iterations", vus: 1, iterations: 1, exec: "later", startTime: "4s" },
  },
};
export function slow() {
  cut.add(exec.instance.iterationsInterrupted);
  http.get("http://app.test/json");
  sleep(30);
}
export function throws() {
  http.get("http://app.test/json");
  throw new Error("counted as completed");
}
export function later() {
  cut.add(exec.instance.iterationsInterrupted);
  done.add(exec.instance.iterationsCompleted);
}
`,
      url,
      ["-q", "--summary-export", "export.json", "--summary-trend-stats", "min,max,count"],
    );
    const m = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`)).metrics;
    // The slow VUs read 0 as they start; the later scenario reads their 2 cut, and the 2 that threw as done.
    assertEquals([m.cut_seen.count, m.cut_seen.min, m.cut_seen.max], [3, 0, 2], run.text);
    assertEquals([m.done_seen.min, m.done_seen.max], [2, 2], run.text);
  }));

pool.test("a sleep runs on through gracefulStop; one the stop cuts never returns, its iteration no further", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
import { Counter, Trend } from "k6/metrics";
const finished = new Counter("finished"), woke = new Trend("woke");
export const options = {
  scenarios: {
    patient: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "5s" },
    strict: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "0s" },
  },
  thresholds: {
    "finished{scenario:patient}": ["count==1"],
    "finished{scenario:strict}": ["count==0"],
    "woke{scenario:patient}": ["min>=1900"],
  },
};
export default function () {
  http.get("http://app.test/json");
  const start = Date.now();
  sleep(2);
  woke.add(Date.now() - start);
  finished.add(1);
}
`,
      url,
    );
    assertEquals(code, 0, text);
  }));
