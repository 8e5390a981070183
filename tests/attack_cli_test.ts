/**
 * End to end: `deno run -A main.ts attack ...` as users and other tools invoke it, against real
 * `Deno.serve` targets in this process that count what they received.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runLoadlab } from "./helpers.ts";

/** Answers 200, except every 4th request 503; counts requests and methods. */
function countingTarget() {
  const seen = { requests: 0, posts: 0, bodies: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const n = ++seen.requests;
    if (req.method === "POST") {
      seen.posts++;
      if ((await req.text()) === "hi") seen.bodies++;
    }
    return n % 4 === 0 ? new Response("busy", { status: 503 }) : new Response("ok");
  });
  return { url: `http://127.0.0.1:${server.addr.port}/`, seen, close: () => server.shutdown() };
}

Deno.test("attack -n 1000 --json reports exactly 1000 with the right status counts", async () => {
  const t = countingTarget();
  try {
    const r = await runLoadlab(["attack", t.url, "-n", "1000", "-c", "10", "--json", "--workers", "2"]);
    assertEquals(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assertEquals(t.seen.requests, 1000);
    assertEquals(json.requests, 1000);
    assertEquals(json.statusCodes, { "200": 750, "503": 250 });
    assertEquals(json.successRate, 0.75);
    for (
      const key of [
        "durationSec",
        "rps",
        "latencyMs",
        "uncorrectedLatencyMs",
        "errors",
        "bytesRead",
        "bytesWritten",
        "lateSends",
        "intervals",
      ]
    ) ok(key in json, `--json has ${key}`);
    for (const key of ["min", "mean", "stdev", "p50", "p75", "p90", "p95", "p99", "p999", "max"]) {
      ok(typeof json.latencyMs[key] === "number", `latencyMs.${key}`);
    }
    const interval = json.intervals[0];
    for (const key of ["startMs", "requests", "p50", "p75", "p90", "p99", "errors"]) ok(key in interval);
    // The run verdict and the sends travel with the numbers: a closed run has no requested rate. A
    // quarter of the answers were 503s, whose latencies are in the percentiles: the verdict says so. On a
    // busy machine the two workers may also read saturated: that flag is the only other one allowed.
    const flags = json.verdict.flags.filter((f: { kind: string }) => f.kind !== "generator-bound");
    assertEquals(flags, [{ kind: "server errors", label: "server errors 25%" }]);
    assertEquals(json.verdict.ok, false);
    ok(json.verdict.label.endsWith("server errors 25%"), json.verdict.label);
    assertEquals(json.sends, { requestedRps: null, sent: 1000, dropped: 0, droppedShare: 0 });
  } finally {
    await t.close();
  }
});

Deno.test("attack POST with a body, headers, --out, --report, --log and a failing threshold", async () => {
  const t = countingTarget();
  const dir = await Deno.makeTempDir();
  try {
    const r = await runLoadlab([
      "attack",
      t.url,
      "-n",
      "200",
      "-m",
      "POST",
      "-b",
      "hi",
      "-H",
      "X-Test: 1",
      "--out",
      `${dir}/results.json`,
      "--report",
      `${dir}/report.html`,
      "--log",
      `${dir}/requests.csv`,
      "--threshold",
      "success>99%",
      "--threshold",
      "p99<10s",
    ]);
    assertEquals(r.code, 1, "a failing threshold sets exit code 1");
    ok(r.stdout.includes("FAIL  success>99%"), r.stdout);
    ok(r.stdout.includes("PASS  p99<10s"), r.stdout);
    assertEquals([t.seen.posts, t.seen.bodies], [200, 200]);
    const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
    assertEquals(results.schema, "loadlab.results/v3");
    assertEquals(results.runs[0].requests, 200);
    assertEquals(results.thresholds.map((g: { ok: boolean }) => g.ok), [false, true]);
    ok(/^<!doctype html>/i.test(await Deno.readTextFile(`${dir}/report.html`)));
    const lines = (await Deno.readTextFile(`${dir}/requests.csv`)).trim().split("\n");
    assertEquals(lines[0], "code;startUs;endUs;connection");
    assertEquals(lines.length, 201);
    const [code, start, end] = lines[1].split(";").map(Number);
    ok((code === 200 || code === 503) && end >= start);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const badInputs: Array<[string[], RegExp]> = [
  [["--bogus"], /--bogus/],
  [["-d", "10x"], /10x/],
  [["-c", "0"], /connections|-c/],
  [["-n", "-5"], /-n|requests/],
  [["-c", "999999"], /open file|ulimit/i],
  [["--threshold", "p98<1ms"], /p98/],
];

Deno.test("bad input exits 2 with one line naming the problem, before any load", async () => {
  const t = countingTarget();
  try {
    for (const [args, pattern] of badInputs) {
      const r = await loadlabInProcess(["attack", t.url, ...args], { rejected: true });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      const lines = r.stderr.trim().split("\n");
      assertEquals(lines.length, 1, `one line for ${args.join(" ")}: ${r.stderr}`);
      ok(pattern.test(lines[0]), `${args.join(" ")}: ${lines[0]}`);
    }
    const badUrl = await runLoadlab(["attack", "not a url", "-n", "1"]);
    assertEquals(badUrl.code, 2, badUrl.stderr);
    assertEquals(t.seen.requests, 0, "nothing was sent");
  } finally {
    await t.close();
  }
});

Deno.test("unknown command exits 2 and names the commands", async () => {
  const r = await runLoadlab(["attak"]);
  assertEquals(r.code, 2);
  ok(r.stderr.includes("attack"));
});

Deno.test("other tools' lines: a clash is exit 2 before any load; hey's -cpus and -j run", async () => {
  const t = countingTarget();
  try {
    // hey's -o csv and wrk's -T 2s: read as loadlab's, they wrote results.json to "csv" and sent
    // "Content-Type: 2s" for a whole run.
    for (const clash of [["-o", "csv"], ["-T", "2s"], ["-c", "2", "-q", "5"]]) {
      const r = await runLoadlab(["attack", t.url, "-n", "20", ...clash]);
      assertEquals(r.code, 2, r.stderr);
      ok(r.stderr.includes(`${clash.at(-2)} "${clash.at(-1)}"`), r.stderr);
    }
    assertEquals(t.seen.requests, 0);
    ok(!(await Deno.stat("csv").catch(() => null)), "no results.json named csv");
    const r = await runLoadlab(["attack", t.url, "-n", "20", "-c", "2", "-cpus", "2", "-j"]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(JSON.parse(r.stdout).requests, 20);
    assertEquals(t.seen.requests, 20);
  } finally {
    await t.close();
    await Deno.remove("csv").catch(() => {});
  }
});
