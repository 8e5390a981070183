/**
 * k6's `--system-tags` and `options.systemTags` through `loadlab run` against the built-in target, each
 * case as k6 v1.8.1 ran the same script: which tags `--out json` points carry, a threshold on a tag left out
 * judging k6's empty submetric, the summary's groups and checks read from the `group` and `check` tags, no
 * tag at all with an empty set, and a name none of k6's ignored with a warning. Two iterations each.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

/** Each metric's points' sorted tag keys and each `Metric` line's submetrics, from an NDJSON file. */
function tagKeys(path: string): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const line of Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l))) {
    const keys = line.type === "Point"
      ? Object.keys(line.data.tags).sort().join(",")
      : `submetrics: ${(line.data.submetrics ?? []).map((s: { name: string }) => s.name).sort().join(" ")}`;
    (out[line.metric] ??= new Set()).add(keys);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}

Deno.test("--system-tags status,method: points carry those two; a threshold on a tag left out sees none", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { check, group } from "k6";
import { Trend } from "k6/metrics";
const mine = new Trend("mine");
export const options = {
  iterations: 2,
  thresholds: {
    "http_reqs{status:200}": ["count==2"],
    "http_reqs{url:${url}/json}": ["count>0"],
    "http_req_duration{name:${url}/json}": ["p(95)<0.001"],
    "checks{check:ok}": ["rate==1"],
    "iterations{scenario:default}": ["count>0"],
    "mine{scenario:default}": ["avg==0"],
  },
};
export default function () {
  group("g", () => check(http.get("${url}/json"), { ok: (r) => r.status === 200 }));
  mine.add(5);
}
`,
      null,
      (dir) => [
        ...["-q", "--system-tags", "status,method", "--out", `json=${dir}/p.json`],
        ...["--summary-export", `${dir}/s.json`],
      ],
      { inProcess: true },
    );
    // As k6: the submetrics of `url` and `scenario` count nothing (count>0 fails), the others pass empty.
    assertEquals(run.code, 99, run.text);
    const summary = JSON.parse(Deno.readTextFileSync(`${run.dir}/s.json`));
    const failed = Object.entries(summary.metrics as Record<string, { thresholds?: Record<string, boolean> }>)
      .flatMap(([name, m]) => Object.entries(m.thresholds ?? {}).filter(([, f]) => f).map(() => name));
    assertEquals(failed.sort(), [`http_reqs{url:${url}/json}`, "iterations{scenario:default}"]);
    assertEquals(summary.metrics["http_reqs{status:200}"].count, 2);
    assertEquals(summary.metrics["http_req_duration{expected_response:true}"], undefined);
    // k6 reads groups and checks from their tags: neither is kept.
    assertEquals([summary.root_group.groups, summary.root_group.checks], [{}, {}]);
    const keys = tagKeys(`${run.dir}/p.json`);
    for (const m of ["http_reqs", "http_req_duration", "http_req_waiting", "http_req_failed"]) {
      ok(keys[m].includes("method,status") && keys[m].length === 2, `${m}: ${keys[m]}`);
    }
    for (const m of ["checks", "group_duration", "iterations", "iteration_duration", "data_sent", "mine"]) {
      ok(keys[m].includes(""), `${m}: ${keys[m]}`);
    }
    ok(
      keys.http_req_duration.includes(`submetrics: http_req_duration{name:${url}/json}`),
      keys.http_req_duration.join("; "),
    );
  }));

Deno.test("--system-tags vu,iter,ip: each point's VU and iteration as metadata, a request's ip as a tag", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { vus: 2, iterations: 4 };
export default function () { check(http.get("${url}/json"), { ok: (r) => r.status === 200 }); }
`,
      null,
      (dir) => ["-q", "--system-tags", "vu,iter,ip", "--out", `json=${dir}/p.json`],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    const points = Deno.readTextFileSync(`${run.dir}/p.json`).trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "Point");
    // As k6 v1: vu and iter are metadata, not tags; ip tags requests only.
    const seen = (metric: string) =>
      points.filter((p) => p.metric === metric).map((p) => JSON.stringify([p.data.tags, p.data.metadata]))
        .sort();
    const requests = seen("http_reqs").map((p) => JSON.parse(p));
    ok(requests.every(([tags]) => JSON.stringify(tags) === '{"ip":"127.0.0.1"}'), JSON.stringify(requests));
    // Each VU's iterations from 0, four in all (shared: a VU may run more than the other).
    const byVu: Record<string, string[]> = {};
    for (const [, { vu, iter }] of requests) (byVu[vu] ??= []).push(iter);
    for (const iters of Object.values(byVu)) assertEquals(iters, iters.map((_, k) => String(k)));
    assertEquals(requests.length, 4);
    const iterations = requests.map(([, meta]) => JSON.stringify([{}, meta]));
    assertEquals([seen("checks"), seen("iterations")], [iterations, iterations]);
  }));

Deno.test("--system-tags '': no system tag; the script's own tags (a request's name too) stay", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { Counter } from "k6/metrics";
const hits = new Counter("hits");
export const options = { iterations: 2, tags: { team: "web" } };
export default function () {
  http.get("${url}/json", { tags: { name: "json", kind: "api" } });
  hits.add(1);
}
`,
      null,
      (dir) => ["-q", "--system-tags", "", "--out", `json=${dir}/p.json`],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    const keys = tagKeys(`${run.dir}/p.json`);
    assertEquals(keys.http_reqs, ["kind,name,team", "submetrics: "]);
    assertEquals(keys.iterations, ["submetrics: ", "team"]);
    // A metric of the script's own, with no threshold on its tags, has its points too.
    assertEquals(keys.hits, ["submetrics: ", "team"]);
  }));

Deno.test("options.systemTags keeps groups and checks with their tags; a name none of k6's is warned of", () =>
  withTarget(async (url) => {
    const script = (tags: string) =>
      `import http from "k6/http";
import { check, group } from "k6";
export const options = { iterations: 2, systemTags: ${tags}, thresholds: { "checks{group:::g}": ["rate==1"] } };
export default function () { group("g", () => check(http.get("${url}/json"), { ok: (r) => r.status === 200 })); }
`;
    const run = await runK6Text(script('["group", "check", "bogus"]'), null, [
      "-q",
      "--summary-export",
      "s.json",
    ]);
    assertEquals(run.code, 0, run.text);
    ok(run.stderr.includes("bogus is none of k6's system tags (ignored, as k6 ignores it)"), run.stderr);
    ok(!run.stderr.includes("none of k6's options"), run.stderr);
    const group = JSON.parse(Deno.readTextFileSync(`${run.dir}/s.json`)).root_group.groups.g;
    assertEquals([group.path, group.checks.ok.passes], ["::g", 2]);
    // Only `group`: the groups stay, their checks go (k6's summary has no check tag to read).
    const groups = await runK6Text(script('["group"]'), null, ["-q", "--summary-export", "s.json"]);
    assertEquals(groups.code, 0, groups.text);
    assertEquals(JSON.parse(Deno.readTextFileSync(`${groups.dir}/s.json`)).root_group.groups.g.checks, {});
    const refused = await runK6Text(script('"group"'), null, ["-q"]);
    assertEquals(refused.code, 104, refused.text);
    ok(refused.stderr.includes("systemTags is a list of tag names"), refused.stderr);
  }));

Deno.test("a named request's url tag is its name, as k6's: points and thresholds on url see the name", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
export const options = { iterations: 2, thresholds: { "http_reqs{url:json}": ["count==2"] } };
export default function () { http.get("${url}/json?id=1", { tags: { name: "json" } }); }
`,
      null,
      (dir) => ["-q", "--out", `json=${dir}/p.json`],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    const points = Deno.readTextFileSync(`${run.dir}/p.json`).trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "Point" && l.metric.startsWith("http_req"));
    assertEquals([...new Set(points.map((p) => p.data.tags.url))], ["json"]);
  }));

Deno.test("a custom metric's name tag is a tag: its submetrics by name, alone or with others, see it", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { Counter, Trend } from "k6/metrics";
const calls = new Counter("calls"), took = new Trend("took");
export const options = {
  iterations: 2,
  thresholds: { "calls{name:get}": ["count==2"], "calls{name:get,kind:read}": ["count==2"], "took{name:x}": ["avg==5"] },
};
export default function () {
  http.get("${url}/json");
  calls.add(1, { name: "get", kind: "read" });
  took.add(5, { name: "x" });
}
`,
      null,
      ["-q"],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
  }));
