/**
 * k6's command line on a k6 script, through `loadlab run` against the built-in target: `-i`, `--tag` on
 * every sample (a threshold selects by it), `--no-thresholds`, `--summary-export` in k6's legacy JSON
 * shape, `--summary-trend-stats`, `--http-debug` on stderr with its credentials redacted, `--out json=FILE`
 * as k6's NDJSON, `-q`, and `setupTimeout`/`teardownTimeout` in the script's options. A few iterations each.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

const SCRIPT = `import http from "k6/http";
import { check, sleep } from "k6";
export const options = {
  iterations: 5,
  setupTimeout: "20s",
  teardownTimeout: "20s",
  thresholds: { "http_req_duration{env:staging}": ["max>=0"], checks: ["rate<0"] },
};
export function setup() { return { n: 1 }; }
export default function () {
  const r = http.get("http://app.test/json", { headers: { Authorization: "Bearer s3cr3t-t0ken" } });
  check(r, { "is 200": (r) => r.status === 200 });
}
`;

Deno.test("--summary-mode disabled shows no summary, calls no handleSummary, writes no export; the verdict kept", () =>
  withTarget(async (url) => {
    const handled = "export function handleSummary() { return { stdout: 'HANDLED' }; }\n";
    const run = await runK6Text(SCRIPT + handled, url, (dir) => [
      ...["-i", "2", "--summary-mode", "disabled", "--summary-export", `${dir}/export.json`],
    ], { inProcess: true });
    assertEquals(run.code, 99, run.text);
    ok(!run.text.includes("HANDLED") && !run.text.includes("THRESHOLDS"), run.text);
    ok(!existsSync(`${run.dir}/export.json`), run.text);
  }));

Deno.test("k6's flags: -i, --tag, --summary-export, --summary-trend-stats, --http-debug, --out json", () =>
  withTarget(async (url) => {
    const run = await runK6Text(SCRIPT, url, [
      ...["-i", "3", "--tag", "env=staging", "--no-thresholds", "-q"],
      ...["--summary-export", "export.json", "--summary-trend-stats", "avg,p(99.9),count"],
      ...["--http-debug", "--out", "json=points.ndjson"],
    ]);
    assertEquals(run.code, 0, run.text);
    assertEquals(run.results.runs[0].requests, 3, run.text);
    const exported = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`));
    assertEquals([exported.metrics.checks.passes, exported.metrics.checks.fails], [3, 0]);
    assertEquals(exported.metrics.http_reqs.count, 3);
    assertEquals(Object.keys(exported.metrics.http_req_duration).sort(), ["avg", "count", "p(99.9)"]);
    assertEquals(exported.metrics.checks.thresholds, undefined);
    ok(
      exported.root_group && !Array.isArray(exported.root_group.checks),
      JSON.stringify(exported.root_group),
    );
    ok(/Request:\nGET \/json HTTP\/1\.1\n/.test(run.text), run.text);
    ok(/Response:\nHTTP\/1\.1 200 OK\n/.test(run.text), run.text);
    ok(!run.text.includes("s3cr3t-t0ken") && run.text.includes("Authorization: [redacted]"), run.text);
    const lines = Deno.readTextFileSync(`${run.dir}/points.ndjson`).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const points = lines.filter((l) => l.type === "Point" && l.metric === "http_reqs");
    assertEquals(points.length, 3);
    assertEquals(points[0].data.value, 1);
    assertEquals(points[0].data.tags.env, "staging");
    assertEquals(points[0].data.tags.status, "200");
    const duration = lines.find((l) => l.type === "Metric" && l.metric === "http_req_duration");
    assertEquals([duration.data.type, duration.data.contains, duration.data.thresholds], [
      "trend",
      "time",
      [],
    ]);
    assertEquals(duration.data.submetrics.map((m: { name: string }) => m.name), [
      "http_req_duration{expected_response:true}",
    ]);
    ok(lines.some((l) => l.type === "Point" && l.metric === "checks" && l.data.tags.check === "is 200"));
    // Each request's phases, as k6 writes them after its duration: a point per phase, tagged alike.
    for (const phase of ["blocked", "connecting", "tls_handshaking", "sending", "waiting", "receiving"]) {
      const of = lines.filter((l) => l.type === "Point" && l.metric === `http_req_${phase}`);
      assertEquals(of.map((l) => [l.data.tags.status, l.data.value >= 0]), [["200", true], ["200", true], [
        "200",
        true,
      ]]);
    }
  }));

Deno.test("--tag on every request: a threshold by it holds, a failed one judged, both in Metric lines", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      SCRIPT,
      url,
      (dir) => ["-u", "1", "-i", "2", "--tag", "env=staging", "--out", `json=${dir}/p.json`],
      { inProcess: true },
    );
    const tagged = run.results.thresholds.find((t: { expression: string }) =>
      t.expression.includes("env:staging")
    );
    assertEquals(tagged?.ok, true, run.text);
    ok(run.code !== 0, run.text);
    ok(/checks/.test(run.text), run.text);
    // k6's Metric lines: a metric's own rules, a submetric per threshold on tags.
    const metrics = Deno.readTextFileSync(`${run.dir}/p.json`).trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "Metric");
    assertEquals(metrics.find((l) => l.metric === "checks").data.thresholds, ["rate<0"]);
    assertEquals(metrics.find((l) => l.metric === "http_req_duration").data.submetrics[0], {
      name: "http_req_duration{env:staging}",
      suffix: "env:staging",
      tags: { env: "staging" },
    });
  }));

Deno.test("iterations, vus_max, dropped_iterations by a run tag or the one scenario: every sample's, as k6's", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
export const options = {
  tags: { env: "script", team: "a" },
  thresholds: {
    "iterations{env:ci}": ["count==2"], "iterations{env:script}": ["count==0"],
    "dropped_iterations{scenario:default}": ["count==0"], "http_reqs{team:a}": ["count==0"],
  },
};
export default function () { http.get("http://app.test/json"); }
`;
    const run = await runK6Text(script, url, ["-u", "1", "-i", "2", "--tag", "env=ci"], { inProcess: true });
    assertEquals(run.code, 0, run.text);
  }));

Deno.test("--out json: a request and a group's duration in a group carry its path as the group tag", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { group } from "k6";
export const options = { iterations: 1 };
export default function () {
  http.get("http://app.test/json");
  group("api", () => { http.get("http://app.test/json"); });
}
`,
      url,
      (dir) => ["--out", `json=${dir}/p.json`],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    const points = Deno.readTextFileSync(`${run.dir}/p.json`).trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "Point");
    const groups = (metric: string) =>
      points.filter((p) => p.metric === metric).map((p) => p.data.tags.group);
    assertEquals(groups("http_reqs"), ["", "::api"]);
    assertEquals(groups("group_duration"), ["::api"]);
  }));

Deno.test("--out json: exec.vu.metrics.metadata goes on the VU's later points as metadata, never a tag", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import exec from "k6/execution";
export const options = { iterations: 2, thresholds: { "http_reqs{trace:t0}": ["count==0"] } };
export default function () {
  if (exec.scenario.iterationInTest === 0) http.get("http://app.test/json");
  exec.vu.metrics.metadata.trace = "t0";
  http.get("http://app.test/json");
}
`,
      url,
      ["--out", "json=p.json"],
    );
    assertEquals(run.code, 0, run.text);
    const points = Deno.readTextFileSync(`${run.dir}/p.json`).trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "Point" && l.metric === "http_reqs");
    assertEquals(points.map((p) => p.data.metadata?.trace), [undefined, "t0", "t0"]);
    ok(points.every((p) => p.data.tags.trace === undefined), run.text);
  }));

Deno.test("setupTimeout in a k6 script's options bounds its setup()", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
export const options = { iterations: 1, setupTimeout: "1s" };
export async function setup() { await new Promise((r) => setTimeout(r, 5000)); }
export default function () { http.get("http://app.test/"); }
`,
      url,
      [],
      { inProcess: true },
    );
    ok(/setupTimeout/.test(run.text) && /1 s/.test(run.text), run.text);
  }));

Deno.test("--secret-source: k6/secrets reads file and mock sources by name, values redacted in what it prints", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
import secrets from "k6/secrets";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };
export default async function () {
  const token = await secrets.get("api-token");
  const other = await secrets.source("ops").get("api-token");
  console.log("token " + token + " and " + other);
  const res = http.get("${url}/json", { headers: { Authorization: "Bearer " + token } });
  check(res, { "sent": (r) => r.status === 200, "other source": () => other === "ops-value-2" });
  await secrets.get("missing").catch((err) => console.log("missing: " + err.message));
}
`;
    const files = { "secrets.txt": "api-token=file-value-1\nother=x\n" };
    const sources = ["--secret-source", "file=name=main,default,secrets.txt"];
    const run = await runK6Text(script, null, [
      ...sources,
      ...["--secret-source", "mock=name=ops,api-token=ops-value-2"],
    ], { files });
    assertEquals(run.code, 0, run.text);
    ok(/checks_succeeded\.+: 100\.00% 4 out of 4/.test(run.stdout), run.text);
    ok(!run.text.includes("file-value-1") && !run.text.includes("ops-value-2"), run.text);
    ok(/token \[redacted 12 chars sha256:\w+\] and \[redacted 11 chars/.test(run.text), run.text);
    ok(run.text.includes("missing: no value"), run.text);
    // A line k6 refuses: exit 255 before any load, as k6 (a type loadlab has not, a line without =).
    const bad = await runK6Text(script, null, ["--secret-source", "url=x"], { files });
    assertEquals([bad.code, bad.results], [255, null], bad.text);
    ok(bad.stderr.includes('no secret source of type "url"'), bad.stderr);
    const badFile = await runK6Text(script, null, ["--secret-source", "file=s.txt"], {
      files: { "s.txt": "novalue\n" },
    });
    ok(badFile.code === 255 && badFile.stderr.includes('parsing "novalue", needs ='), badFile.text);
  }));

Deno.test("--out json: each iteration's data_sent and data_received, and vus and vus_max once a second", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
export const options = { vus: 2, duration: "2500ms", tags: { team: "web" } };
export default function () {
  http.get("${url}/json");
  sleep(0.5);
}
`,
      null,
      (dir) => ["-q", "--out", `json=${dir}/points.ndjson`],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    const points = Deno.readTextFileSync(`${run.dir}/points.ndjson`).trim().split("\n").map((l) =>
      JSON.parse(l)
    )
      .filter((l) => l.type === "Point");
    const of = (metric: string) => points.filter((p) => p.metric === metric);
    const sum = (metric: string) => of(metric).reduce((a, p) => a + p.data.value, 0);
    const iterations = of("iterations").length;
    ok(iterations >= 4, run.text);
    assertEquals([of("data_sent").length, of("data_received").length], [iterations, iterations]);
    // The isolates' bytes since their last iteration: together the run's, as k6's per-VU points sum to it.
    const [first] = run.results.runs;
    assertEquals([sum("data_sent"), sum("data_received")], [first.bytesWritten, first.bytesRead]);
    // A point a second of the test, the run's tags on it (a busy machine's start-up may take one).
    const vus = of("vus"), most = of("vus_max");
    ok(vus.length >= 1 && vus.length <= 3 && most.length === vus.length, JSON.stringify(vus));
    ok(vus.every((p) => p.data.value <= 2) && most.every((p) => p.data.value === 2), JSON.stringify(most));
    assertEquals(vus[0].data.tags, { team: "web" });
  }));

Deno.test("-u 0 or vus alone, and empty stages, run one iteration as k6's with its warning; -u 0 -d is 104", async () => {
  const script = `import { check } from "k6";
export const options = OPTIONS;
export default function () { check(1, { "ran": () => true }); }
`;
  const cases: Array<[string, string[], string]> = [
    ["{}", ["-u", "0"], "the `vus=0` option will be ignored"],
    ["{ vus: 5 }", [], "the `vus=5` option will be ignored"],
    ["{ stages: [] }", [], "`stages` was explicitly set to an empty value"],
    ["{ scenarios: {} }", [], "`scenarios` was explicitly set to an empty value"],
  ];
  for (const [options, flags, warning] of cases) {
    const run = await runK6Text(script.replace("OPTIONS", options), null, flags, { inProcess: true });
    assertEquals(run.code, 0, run.text);
    ok(run.stderr.includes(warning), run.text);
    ok(/checks_succeeded\.+: 100\.00% 1 out of 1/.test(run.stdout), run.stdout);
  }
  const timed = await runK6Text(script.replace("OPTIONS", "{}"), null, ["-u", "0", "-d", "1s"], {
    inProcess: true,
  });
  assertEquals(timed.code, 104, timed.text);
  ok(timed.stderr.includes("vus must be >= 1 (found 0)"), timed.text);
});

Deno.test("options.httpDebug prints the exchanges as --http-debug does; noVUConnectionReuse runs", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
export const options = { iterations: 1, httpDebug: "full", noVUConnectionReuse: true };
export default function () { http.get("http://app.test/json"); }
`;
    const run = await runK6Text(script, url);
    assertEquals(run.code, 0, run.text);
    ok(/Request:\nGET \/json HTTP\/1\.1\n/.test(run.text), run.text);
    ok(/Response:\nHTTP\/1\.1 200 OK\n/.test(run.text), run.text);
  }));

Deno.test("blockHostnames and blacklistIPs fail a request as k6's dialer; dns runs, told", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
import { check } from "k6";
export const options = {
  iterations: 1,
  blockHostnames: ["*.blocked.test"],
  blacklistIPs: ["10.0.0.0/8", "fd00::/8"],
  hosts: { "internal.test": "10.1.2.3:8080", "app.test": "${new URL(url).host}" },
  dns: { ttl: "1m", select: "roundRobin", policy: "preferIPv4" },
  thresholds: { checks: ["rate==1"] },
};
export default function () {
  const fails = (code, error) => (r) => r.status === 0 && r.error_code === code && r.error === error;
  check(http.get("http://app.test/json"), { "sent": (r) => r.status === 200 });
  check(http.get("http://api.blocked.test/"), { "blocked": fails(1111, "hostname is blocked") });
  check(http.get("http://internal.test/"), { "mapped": fails(1110, "ip is blacklisted") });
  check(http.get("http://[fd00::1]/"), { "v6": fails(1110, "ip is blacklisted") });
}
`;
    const run = await runK6Text(script, url);
    assertEquals(run.code, 0, run.text);
    ok(run.stderr.includes("hostname (api.blocked.test) is in a blocked pattern (*.blocked.test)"), run.text);
    ok(run.stderr.includes("IP (10.1.2.3) is in a blacklisted range (10.0.0.0/8)"), run.text);
    ok(run.stderr.includes("options.dns: not honoured"), run.text);
  }));

Deno.test("--console-output FILE appends the console's lines to the file in k6's log lines", async () => {
  const script = `export const options = { iterations: 2 };
export default function () { console.log("hello"); console.warn("a b", { x: 1 }); console.debug("hidden"); }
`;
  const run = await runK6Text(script, null, ["--console-output", "console.txt"]);
  assertEquals(run.code, 0, run.text);
  const lines = Deno.readTextFileSync(`${run.dir}/console.txt`).trim().split("\n");
  assertEquals(lines.length, 4, lines.join("\n"));
  ok(/^time="\S+Z" level=info msg=hello$/.test(lines[0]), lines[0]);
  ok(lines[1].endsWith(' level=warning msg="a b {\\"x\\":1}"'), lines[1]);
  ok(!run.stderr.includes("hello") && !lines.join().includes("hidden"), run.text);
});

Deno.test("--compatibility-mode: base has no global, extended aliases it, another mode is refused", async () => {
  const script = `import { check } from "k6";
export const options = { iterations: 1, thresholds: { checks: ["rate==1"] } };
export default function () {
  check(null, { "global as the mode has it": () => __ENV.HAS === String(typeof global !== "undefined") });
}
`;
  const base = await runK6Text(script, null, ["--compatibility-mode=base", "-e", "HAS=false"]);
  assertEquals(base.code, 0, base.text);
  const extended = await runK6Text(script, null, ["--compatibility-mode", "extended", "-e", "HAS=true"]);
  assertEquals(extended.code, 0, extended.text);
  const other = await runK6Text(script, null, ["--compatibility-mode=es6"]);
  assertEquals(other.code, 255, other.text);
  ok(other.text.includes('invalid compatibility mode "es6". Use: "extended", "base"'), other.text);
});

Deno.test("bundled short flags as k6's command line reads them: -qu 1, -qi2, -qeA=1", async () => {
  const script = `import exec from "k6/execution";
import { check } from "k6";
export default function () {
  check(null, { bundled: () => __ENV.A === "1" && __ENV.B === "2" && exec.instance.vusInitialized === 2 });
}
`;
  const run = await runK6Text(script, null, ["-qu", "2", "-qi4", "-qeA=1", "-e=B=2"], { inProcess: true });
  assertEquals(run.code, 0, run.text);
  ok(/checks_succeeded\.+: 100\.00% 4 out of 4/.test(run.stdout), run.stdout);
});
