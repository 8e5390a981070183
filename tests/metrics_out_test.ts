/**
 * End to end: `--out prometheus-remote-write=URL` into a real Prometheus (Debian's `prometheus` with its
 * remote-write receiver and native histograms), queried back over its HTTP API; `--out otlp=URL` into a
 * receiver in this test that decodes the OTLP protobuf with protobufjs (against OTLP's own message
 * definitions, tests/fixtures/otlp_metrics.proto) and checks it against results.json, `otlp-json=URL` the
 * same in JSON; a receiver that is down; bad `--out` values. Loads are short, bounded and on loopback.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, withTempDir } from "./helpers.ts";
import { NATIVE_BUCKET_WIDTH } from "../results/export/native_histogram.ts";
import type { ResultsFile } from "../results/mod.ts";
import { exportNote } from "../results/export/summary.ts";
import { freePort } from "../system/ports.ts";
import { dataPoints, metricsReceiver, otlpAttributes } from "./fixtures/metrics_receiver.ts";
import { startPrometheus } from "./fixtures/prometheus_server.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Cases at once (their receivers too): their `loadlab` calls run one at a time, in this process. */
const pool = testPool(3);

/** One native bucket plus one HDR bucket (3 significant digits) and results.json's rounding. */
const QUANTILE_TOLERANCE = NATIVE_BUCKET_WIDTH + 0.001 + 0.001;

const EXPERIMENT = `
name: promtest
targets:
  plain: { kind: builtin }
loads:
  closed: { model: connections, connections: 2, duration: 1500ms, requests: [/json] }
interval: 250ms
`;

function within(actual: number, expected: number, relative: number, what: string): void {
  ok(
    Math.abs(actual - expected) <= expected * relative,
    `${what}: ${actual} vs ${expected} (±${relative * 100}%)`,
  );
}

pool.test("run --out prometheus-remote-write: a real Prometheus returns the run's p99 and request count", async () => {
  if (!requireProgram("prometheus")) return;
  await withTempDir(async (dir) => {
    const prometheus = await startPrometheus(dir);
    try {
      await Deno.writeTextFile(`${dir}/exp.yaml`, EXPERIMENT);
      const r = await loadlabInProcess([
        "run",
        `${dir}/exp.yaml`,
        "--out-dir",
        `${dir}/out`,
        "--out",
        `prometheus-remote-write=${prometheus.url}`,
      ]);
      assertEquals(r.code, 0, r.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      const run = results.runs[0];
      const [exported] = results.export!;
      ok(exported.intervalsSent >= 6, `one point per 250 ms interval: ${JSON.stringify(exported)}`);
      assertEquals([exported.intervalsDropped, exported.intervalsFailed], [0, 0]);
      ok(
        r.stdout.includes(
          `metrics out: prometheus-remote-write ${exported.intervalsSent} intervals sent, 0 dropped`,
        ),
      );

      const selector = `{experiment="promtest",variant="plain",load="closed",run="${run.name}"}`;
      const [p99] = await prometheus.query(
        `histogram_quantile(0.99, loadlab_request_duration_seconds${selector})`,
      );
      // The native buckets hold HDR's buckets whole, so the quantile lands in the right native bucket;
      // Prometheus then interpolates inside it while HDR reports its own (finer) bucket's top: up to one
      // native bucket (0.27%) plus one HDR bucket (0.1% at 3 digits) apart.
      within(Number(p99.value[1]) * 1000, run.latencyMs.p99, QUANTILE_TOLERANCE, "p99 ms");
      const [p50] = await prometheus.query(
        `histogram_quantile(0.5, loadlab_request_duration_seconds${selector})`,
      );
      within(Number(p50.value[1]) * 1000, run.latencyMs.p50, QUANTILE_TOLERANCE, "p50 ms");
      const [requests] = await prometheus.query(`loadlab_requests_total${selector}`);
      assertEquals(Number(requests.value[1]), run.requests);
      const [count] = await prometheus.query(`histogram_count(loadlab_request_duration_seconds${selector})`);
      assertEquals(Number(count.value[1]), run.requests);
      const errors = await prometheus.query(`loadlab_errors_total${selector}`);
      ok(errors.some((e) => e.metric.kind === "connect"), "every error kind is a series");
      const cpu = await prometheus.query(`loadlab_target_cpu_percent${selector}`);
      assertEquals(cpu[0]?.metric.process, "target");
    } finally {
      await prometheus.stop();
    }
  });
});

pool.test("attack --out otlp: the receiver decodes cumulative OTLP protobuf that adds up to results.json", async () => {
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  const receiver = metricsReceiver();
  try {
    await withTempDir(async (dir) => {
      const targetUrl = `http://127.0.0.1:${target.addr.port}/`;
      const r = await loadlabInProcess([
        "attack",
        targetUrl,
        "-c",
        "2",
        "-d",
        "1200ms",
        "--interval",
        "200ms",
        "--out",
        `otlp=${receiver.url}`,
        "-o",
        `${dir}/results.json`,
      ]);
      const returnedNs = BigInt(Date.now()) * 1_000_000n;
      assertEquals(r.code, 0, r.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      const run = results.runs[0];
      assertEquals(results.export![0].kind, "otlp");
      assertEquals(results.export![0].url, `${receiver.url}/v1/metrics`);
      ok(receiver.contentTypes.every((t) => t === "application/x-protobuf"), receiver.contentTypes.join());
      const resource = receiver.otlp[0].resourceMetrics[0].resource.attributes;
      ok(resource.some((a: any) => a.key === "service.name" && a.value.stringValue === "loadlab"));

      const requests = dataPoints(receiver.otlp, "loadlab.requests");
      assertEquals(requests.length, results.export![0].intervalsSent);
      assertEquals(Number(requests.at(-1).asInt), run.requests);
      const times = requests.map((p) => BigInt(p.timeUnixNano));
      ok(times.every((t, i) => i === 0 || t > times[i - 1]), "one point per interval, in time order");
      // The graceful stop's partial interval is stamped when taken, not at its nominal end: a point in
      // the future would hide the run's last responses from a query at its end.
      ok(times.at(-1)! <= returnedNs, `last point at ${times.at(-1)} ns, command returned at ${returnedNs}`);
      const attributes = Object.fromEntries(
        requests[0].attributes.map((a: any) => [a.key, a.value.stringValue]),
      );
      assertEquals(attributes, { experiment: "attack", variant: "attack", load: "attack", run: "attack" });

      const latency = dataPoints(receiver.otlp, "loadlab.request.duration").at(-1);
      assertEquals(Number(latency.count), run.requests);
      const counts: number[] = latency.positive.bucketCounts.map(Number);
      assertEquals(counts.reduce((a, b) => a + b, 0) + Number(latency.zeroCount), run.requests);
      // The bucket holding the 99th percentile's rank has results' p99 inside it (exponential base
      // 2^(1/256)).
      const base = 2 ** (2 ** -latency.scale);
      let seen = 0, k = 0;
      while ((seen += counts[k]) < 0.99 * run.requests) k++;
      const upperMs = base ** (latency.positive.offset + k + 1) * 1000;
      ok(
        run.latencyMs.p99 <= upperMs * (1 + 1e-9) && run.latencyMs.p99 > upperMs / base,
        "p99 in its bucket",
      );
    });
  } finally {
    await receiver.close();
    await target.shutdown();
  }
});

pool.test("run with out: in the experiment file streams there too, one series per run with its sweep value", async () => {
  const receiver = metricsReceiver();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/exp.yaml`,
        `name: filetest
targets:
  plain: { kind: builtin }
loads:
  fixed: { model: count, requests: 300, connections: 2 }
sweeps:
  - { parameter: load.connections, values: [1, 2] }
interval: 100ms
out: ["otlp-json=${receiver.url}"]
`,
      );
      const r = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
      assertEquals(r.code, 0, r.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(results.export?.[0].intervalsFailed, 0);
      assertEquals(results.export?.[0].kind, "otlp-json");
      ok(receiver.contentTypes.every((t) => t === "application/json"), receiver.contentTypes.join());
      const requests = dataPoints(receiver.otlp, "loadlab.requests");
      const lastByRun = new Map<string, any>();
      for (const p of requests) {
        const attributes = Object.fromEntries(p.attributes.map((a: any) => [a.key, a.value.stringValue]));
        lastByRun.set(attributes.run, { attributes, value: Number(p.asInt) });
      }
      assertEquals(lastByRun.size, 2);
      for (const run of results.runs) {
        const last = lastByRun.get(run.name);
        assertEquals(last?.value, run.requests);
        assertEquals(last.attributes.sweep_load_connections, String(run.sweep!.value));
        assertEquals(last.attributes.experiment, "filetest");
      }
    });
  } finally {
    await receiver.close();
  }
});

pool.test("run --out: report.html carries what the metrics output delivered, as results.json does", async () => {
  const receiver = metricsReceiver();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/exp.yaml`,
        `name: notetest
targets:
  plain: { kind: builtin }
loads:
  fixed: { model: count, requests: 200, connections: 2 }
interval: 100ms
`,
      );
      const out = `otlp-json=${receiver.url}`;
      const r = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`, "--out", out]);
      assertEquals(r.code, 0, r.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      const note = exportNote(results.export);
      ok(note?.includes(receiver.url), String(note));
      const html = await Deno.readTextFile(`${dir}/out/report.html`);
      ok(html.includes(JSON.stringify(note).slice(1, -1)), "report.html lacks the metrics-out note");
    });
  } finally {
    await receiver.close();
  }
});

pool.test("attack --out to a receiver that is down: the run ends normally, failures counted and printed", async () => {
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    await withTempDir(async (dir) => {
      const down = `http://127.0.0.1:${freePort()}/api/v1/write`;
      const r = await loadlabInProcess([
        "attack",
        `http://127.0.0.1:${target.addr.port}/`,
        "-n",
        "2000",
        "-c",
        "2",
        "--out",
        `prometheus-remote-write=${down}`,
        "--out",
        `${dir}/results.json`,
      ]);
      assertEquals(r.code, 0, r.stderr);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assertEquals(results.runs[0].requests, 2000);
      const [exported] = results.export!;
      assertEquals([exported.intervalsSent, exported.intervalsDropped], [0, 0]);
      ok(exported.intervalsFailed >= 1 && exported.retries >= 3, JSON.stringify(exported));
      ok(
        r.stdout.includes(
          `metrics out: prometheus-remote-write 0 intervals sent, 0 dropped, ${exported.intervalsFailed} failed ` +
            "(last error: Connection refused (os error 111))",
        ),
        r.stdout,
      );
    });
  } finally {
    await target.shutdown();
  }
});

pool.test("attack --out to a receiver in a 307 loop: each POST is sent once, the batch failed with the redirect named", async () => {
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  let hits = 0;
  const loop = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    hits++;
    await req.body?.cancel();
    return new Response(null, { status: 307, headers: { location: req.url } });
  });
  try {
    await withTempDir(async (dir) => {
      const r = await loadlabInProcess([
        "attack",
        `http://127.0.0.1:${target.addr.port}/`,
        "-n",
        "500",
        "-c",
        "1",
        "--out",
        `otlp=http://127.0.0.1:${loop.addr.port}/v1/metrics`,
        "-o",
        `${dir}/results.json`,
      ]);
      assertEquals(r.code, 0, r.stderr);
      const [exported] = (JSON.parse(await Deno.readTextFile(`${dir}/results.json`)) as ResultsFile).export!;
      ok(exported.posts >= 1 && exported.intervalsFailed >= 1, JSON.stringify(exported));
      assertEquals([hits, exported.retries, exported.intervalsSent], [exported.posts, 0, 0]);
      ok(exported.lastError?.startsWith("HTTP 307 redirect to http://127.0.0.1:"), exported.lastError);
    });
  } finally {
    await loop.shutdown();
    await target.shutdown();
  }
});

pool.test("bad --out values are exit 2 with one line naming the flag and the fix, before any load", async () => {
  const cases: [string[], string][] = [
    [
      ["attack", "http://127.0.0.1:1/", "--out", "promethus-remote-write=http://127.0.0.1:9090/api/v1/write"],
      "did you mean prometheus-remote-write?",
    ],
    [["attack", "http://127.0.0.1:1/", "--out", "otlp=ftp://127.0.0.1/"], "not http(s)"],
    [["attack", "http://127.0.0.1:1/", "--out", "otlp=nowhere"], "not a URL"],
    [["run", "preset:demo", "--out", "results.json"], "run writes its results to --out-dir"],
  ];
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/bad.yaml`,
    "name: bad\ntargets: { a: { kind: builtin } }\nloads: { l: { model: count, requests: 1 } }\n" +
      'out: ["otlpp=http://127.0.0.1:4318"]\n',
  );
  cases.push([["run", `${dir}/bad.yaml`], "did you mean otlp?"]);
  for (const [args, expected] of cases) {
    const r = await loadlabInProcess(args, { rejected: true });
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    const lines = r.stderr.trim().split("\n");
    assertEquals(lines.length, 1, r.stderr);
    ok(/--out|out\[0\]/.test(lines[0]) && lines[0].includes(expected), lines[0]);
  }
  await Deno.remove(dir, { recursive: true });
});

pool.test("a bad --out value never prints its password, with or without a scheme", async () => {
  for (const value of ["otlp=user:s3cretpw@127.0.0.1:4318", "otlp=ftp://user:s3cretpw@127.0.0.1/"]) {
    const r = await loadlabInProcess(["attack", "http://127.0.0.1:1/", "--out", value], { rejected: true });
    assertEquals(r.code, 2, r.stderr);
    ok(!`${r.stdout}${r.stderr}`.includes("s3cretpw"), r.stderr);
    ok(/^loadlab attack: --out otlp=(ftp:\/\/)?user:\[redacted [^\n]+\n$/.test(r.stderr), r.stderr);
  }
});

pool.test("the same metrics output given twice is exit 2 (every point would reach the receiver twice)", async () => {
  const twice = ["--out", "otlp=http://127.0.0.1:4318", "--out", "otlp=http://127.0.0.1:4318/v1/metrics"];
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/twice.yaml`,
    "name: twice\ntargets: { a: { kind: builtin } }\nloads: { l: { model: count, requests: 1 } }\n" +
      'out: ["otlp=http://127.0.0.1:4318", "otlp=http://127.0.0.1:4318/v1/metrics"]\n',
  );
  const cases: [string[], RegExp][] = [
    [
      ["attack", "http://127.0.0.1:1/", ...twice],
      /^loadlab attack: --out otlp=http:\/\/127\.0\.0\.1:4318\/v1\/metrics: given twice/,
    ],
    [
      ["run", "preset:demo", ...twice],
      /^loadlab run: --out otlp=http:\/\/127\.0\.0\.1:4318\/v1\/metrics: given twice/,
    ],
    [["run", `${dir}/twice.yaml`], /out\[1\]: .*given twice/],
  ];
  try {
    for (const [args, expected] of cases) {
      const r = await loadlabInProcess(args, { rejected: true });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
      ok(expected.test(r.stderr), r.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

pool.test("run --out: a step's secret query value is redacted in the endpoint label, kept with --no-redact", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/e.yaml`,
      `name: labelled
targets:
  plain: { kind: builtin }
flows:
  - name: f
    steps:
      - get: /json?token=STEPTOKEN12345
      - get: /
loads:
  short: { model: count, requests: 10, connections: 1 }
`,
    );
    for (const keep of [false, true]) {
      const receiver = metricsReceiver();
      try {
        const r = await loadlabInProcess([
          "run",
          `${dir}/e.yaml`,
          "--out-dir",
          `${dir}/out-${keep}`,
          "--out",
          `otlp=${receiver.url}`,
          ...(keep ? ["--no-redact"] : []),
        ]);
        assertEquals(r.code, 0, r.stderr);
        const endpoints = new Set(otlpAttributes(receiver.otlp).map((a) => a.endpoint).filter(Boolean));
        const shown = keep ? "STEPTOKEN12345" : "[redacted 14 chars sha256:5ae3b556]";
        assertEquals([...endpoints].sort(), ["GET /", `GET /json?token=${shown}`]);
      } finally {
        await receiver.close();
      }
    }
  });
});
