/**
 * Session scripts end to end: real worker isolates against the built-in target (its /login, /me and
 * cookie), each `s.*` call over HTTP/1.1 and h2c, per-request names, open pacing (a session per arrival), a
 * throwing script (counted by message and file:line, the run goes on), unhandled rejections, a script that
 * blocks its isolate (the worker ended at the graceful stop, the run flagged), setup and teardown once per
 * segment around every session with 4 workers and 2 segments, and a type error refused before any load (exit
 * 2 with file:line). Loads are bounded counts or sub-second durations.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { withScriptVars, withTarget } from "./helpers.ts";
import { runAttack } from "../runner/attack.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { sampledLatency } from "../results/conclude/responses.ts";
import { latencyOrGap } from "../report/html/page/run.ts";

const script = (name: string) => new URL(`./fixtures/scripts/${name}`, import.meta.url).pathname;

Deno.test("each s.* call against the built-in target, counted by request name", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 6,
      connections: 2,
      workers: 2,
      intervalMs: 100,
      script: { path: script("login_me.ts") },
    }));
    const flow = run.flows![0];
    assertEquals([flow.name, flow.sessions, flow.completed, flow.failed], ["login_me.ts", 6, 6, 0]);
    const labels = flow.steps.map((s) => s.label).sort();
    assertEquals(labels, ["DELETE /json", "GET /json", "PATCH /json", "PUT /json", "login", "me"]);
    for (const step of flow.steps) assertEquals([step.requests, step.errors], [6, 0]);
    const checks = flow.steps.flatMap((s) => s.checks ?? []);
    assertEquals(checks.length, 9);
    for (const c of checks) assertEquals([c.name, c.failed, c.passed], [c.name, 0, 6]);
    assertEquals(run.errors, {});
  }));

Deno.test("the same sessions over h2c: streams of shared connections, and a connection per session", () =>
  withTarget(async (url) => {
    for (const connection of ["keep-alive", "per-arrival"] as const) {
      const run = await runAttack(parseAttackConfig({
        url,
        model: "count",
        requests: 4,
        connections: 2,
        protocol: "h2c",
        connection,
        intervalMs: 100,
        script: { path: script("login_me.ts") },
      }));
      assertEquals(run.protocol, "h2c");
      const flow = run.flows![0];
      assertEquals([flow.sessions, flow.completed, flow.failed], [4, 4, 0], connection);
      for (const step of flow.steps) assertEquals([step.requests, step.errors], [4, 0]);
      for (const c of flow.steps.flatMap((s) => s.checks ?? [])) {
        assertEquals([c.name, c.failed], [c.name, 0]);
      }
    }
  }));

Deno.test("open pacing: one session per arrival, each a user of its own", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 10,
      ratePerSec: 50,
      maxConnections: 10,
      intervalMs: 100,
      script: { path: script("open.ts") },
    }));
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.steps[0].requests], [10, 10, 10]);
    assertEquals(flow.steps[0].checks, [{ name: "own user, first iteration", passed: 10, failed: 0 }]);
  }));

Deno.test("a throw ends its session as a script error with file:line; the run goes on", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 8,
      connections: 1,
      intervalMs: 100,
      script: { path: script("throwing.ts") },
    }));
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [8, 4, 4]);
    assertEquals(flow.steps[0].requests, 8);
    const messages = run.errorMessages?.script ?? {};
    assertEquals(messages["odd iteration (throwing.ts:7)"], 4);
    const rejected = Object.entries(messages).find(([m]) =>
      m.startsWith("unhandled rejection: dropped promise")
    );
    ok(rejected !== undefined && rejected[1] >= 1, JSON.stringify(messages));
  }));

/** A 300 ms run of script `name` on one connection, whose worker blocks. */
const blockingRun = (url: string, name: string, durationMs = 300) =>
  runAttack(parseAttackConfig({
    url,
    model: "connections",
    connections: 1,
    durationMs,
    gracefulStopMs: 100,
    intervalMs: 100,
    script: { path: script(name) },
  }));

Deno.test("a session that blocks its isolate is ended after the graceful stop and flagged", () =>
  withTarget(async (url) => {
    const run = await blockingRun(url, "blocking.ts");
    assertEquals([run.incomplete, run.stuckWorkers], [true, 1]);
    // Its one answer came before it blocked, with no turn of its loop to send it: counted from its
    // heartbeat, its latency lost with it (no "0 ms").
    assertEquals([run.requests, run.unrecordedLatencies, sampledLatency(run).p50], [1, 1, NaN]);
    // Its interval says so too: the page's latency charts draw a gap there, not 0 ms.
    const answered = run.intervals.filter((iv) => iv.requests > 0);
    assertEquals(answered.map((iv) => [iv.requests, iv.unrecordedLatencies]), [[1, 1]]);
    assertEquals(answered.map((iv) => latencyOrGap(iv, iv.p50)), [null]);
    const flag = runVerdict(run).flags.find((f) => f.kind === "incomplete");
    assertEquals(
      flag?.label,
      "incomplete: 1 worker stuck in blocking.ts; latencies of 1 answer lost with it",
    );
  }));

Deno.test("the answers a worker counted before it blocked are the run's: not 0 req/s, their latencies named lost", () =>
  withTarget(async (url) => {
    // Long enough for its 40 sessions with both cores busy (6 in 300 ms were seen), not a bound on speed.
    const run = await blockingRun(url, "blocking_after.ts", 3_000);
    assertEquals([run.requests, run.stuckWorkers, run.statusCodes?.["200"] ?? 0], [
      40,
      1,
      40 - run.unrecordedLatencies!,
    ]);
    // Those its samples brought (if a timer turned before the 40th) keep their latencies; the rest are named.
    ok(run.unrecordedLatencies! >= 1 && run.unrecordedLatencies! <= 40, `${run.unrecordedLatencies}`);
    ok(run.rps > 0 && run.successRate === 1, `${run.rps} req/s, success ${run.successRate}`);
    const flag = runVerdict(run).flags.find((f) => f.kind === "incomplete");
    ok(
      flag?.label.endsWith(
        `latencies of ${run.unrecordedLatencies} answer${
          run.unrecordedLatencies === 1 ? "" : "s"
        } lost with it`,
      ),
      flag?.label,
    );
  }));

Deno.test("setup before and teardown after every session, once per segment (4 workers, 2 segments)", () =>
  withTarget(async (url) => {
    const log = await Deno.makeTempFile();
    try {
      for (const index of [0, 1]) {
        await withScriptVars({ SCRIPT_LOG: log }, () =>
          runAttack(parseAttackConfig({
            url,
            model: "connections",
            connections: 8,
            workers: 4,
            durationMs: 300,
            intervalMs: 100,
            segment: { index, count: 2 },
            script: { path: script("lifecycle.ts") },
          })));
      }
      const lines = Deno.readTextFileSync(log).trim().split("\n");
      const setups = lines.flatMap((l, k) => l === "setup" ? [k] : []);
      const teardowns = lines.flatMap((l, k) => l === "teardown 1" ? [k] : []);
      assertEquals(setups.length, 2);
      assertEquals(teardowns.length, 2);
      // Segment 0: setup, its sessions, teardown; then segment 1 the same.
      assertEquals([setups[0], teardowns[1]], [0, lines.length - 1]);
      ok(teardowns[0] < setups[1]);
      const sessions = lines.filter((l) => l.startsWith("session"));
      ok(sessions.length >= 8 && sessions.every((l) => l === "session 1"), lines.join(","));
    } finally {
      await Deno.remove(log);
    }
  }));

Deno.test("a type error is refused before any load: exit 2 naming file:line", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "run", script("type_error.ts")],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 2, text);
  ok(text.includes("type_error.ts:4:9: Type 'number' is not assignable to type 'string'"), text);
});

Deno.test("the scripts of docs/SCRIPTS.md are there verbatim and type-check", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/SCRIPTS.md", import.meta.url));
  const names = ["login_browse.ts", "gallery_loop.ts", "signed.ts"];
  const paths = names.map((n) => new URL(`../examples/scripts/${n}`, import.meta.url).pathname);
  for (const path of paths) {
    ok(doc.includes(await Deno.readTextFile(path)), `${path} differs from docs/SCRIPTS.md`);
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", ...paths],
    stderr: "piped",
  })
    .output();
  ok(out.success, new TextDecoder().decode(out.stderr));
});

Deno.test({
  name: "a compiled loadlab runs a script from disk (where DENORT_BIN names a denort)",
  ignore: Deno.env.get("DENORT_BIN") === undefined,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const root = new URL("../", import.meta.url).pathname;
      const binary = `${dir}/loadlab`;
      const compiled = await new Deno.Command(Deno.execPath(), {
        args: ["compile", "-A", "--unstable-net", "--include", "runner/worker/worker.ts", "--include"]
          .concat(["runner/script/session.ts", "--include", "runner/script/host/hooks_worker.ts"])
          .concat(["-o", binary, "main.ts"]),
        cwd: root,
        stderr: "piped",
      }).output();
      ok(compiled.success, new TextDecoder().decode(compiled.stderr));
      const out = await new Deno.Command(binary, {
        args: ["run", script("browse.ts"), "--out-dir", `${dir}/out`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, text);
      ok(text.includes("json 200: 100.0% of 4 passed"), text);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
