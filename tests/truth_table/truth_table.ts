/**
 * @module
 * The truth table of the run verdict, one class of run per test file of this folder, each asserted with
 * real runs: what `attack` says (verdict label, exit code with and without `--strict`, the terminal's
 * latency cells, report.html's verdict badge, the `--summary` and `--junit` files) and what `run` says
 * about the same target alone and beside a healthy built-in target (exit code, run line, results.json).
 * A class is a target URL (a server the test runs, or none at all) and what loadlab must conclude about
 * it. Loads are small and bounded (`-n 40`, a count load of 40), so a class costs a few seconds.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { ResultsFile } from "../../results/mod.ts";
import { escapeMarkdown } from "../../report/ci/summary.ts";
import { runLoadlab, withTempDir } from "../helpers.ts";
import { startTarget } from "../../targets/start.ts";

/** What loadlab must conclude about one class of run. */
export interface VerdictClass {
  /** The target every request goes to. */
  url: string;
  /** The verdict label of its run, e.g. /^failed: no response \(tls \d+\)$/. */
  label: RegExp;
  /** The exit code of `attack` and of `run` (alone and beside a healthy target), without `--strict`. */
  code: number;
  /** The exit code with `--strict`. */
  strictCode: number;
  /** True when not one response came back: every latency cell prints "-" (no sample), not "0 ms". */
  noSamples: boolean;
}

const REQUESTS = 40;

/** The attack's load: a fixed count on two connections, each request given at most 2 s. */
const ATTACK_LOAD = ["-n", `${REQUESTS}`, "-c", "2", "--timeout", "2s", "--no-live"];

/** Runs `fn` with the URL of a built-in target started for it (stopped after, whatever happens). */
export async function withBuiltinTarget(fn: (url: string) => Promise<void>): Promise<void> {
  const target = await startTarget({ kind: "builtin" });
  try {
    await fn(target.url);
  } finally {
    await target.stop();
  }
}

/** Runs `fn` with the URL of a server on 127.0.0.1 answering `status` to every request. */
export async function withStatusServer(status: number, fn: (url: string) => Promise<void>): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(`status ${status}`, { status }),
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** The `loadlab-data` JSON a report embeds: the page's overview rows and runs. */
export function pageDataOf(html: string): {
  overview: Array<{ verdict: string; metrics: Record<string, { mean: number | null }> }>;
  runs: Array<{ verdict: string; latencyMs: Record<string, number | null> }>;
} {
  const m = html.match(/<script type="application\/json" id="loadlab-data">(.*?)<\/script>/s);
  assert(m, "report.html embeds its data");
  return JSON.parse(m[1]);
}

/** The cells of the terminal summary's `Latency` box row, without the row's name. */
export function latencyCells(stdout: string): string[] {
  const row = stdout.split("\n").find((line) => line.startsWith("│ Latency"));
  assert(row, `a Latency row in:\n${stdout}`);
  return row.split("│").slice(2, -1).map((cell) => cell.trim());
}

/**
 * A verdict without the flag a busy machine can put first (`generator-bound: ..., server errors 100%`): it
 * qualifies the class's label, never replaces it, so "generator-bound" alone still fails a class.
 */
function ownVerdict(label: string): string {
  return label.replace(/^generator-bound: [^,]*, /, "");
}

/** `attack` against the class's URL: exit codes, terminal, results, report, summary and JUnit agree. */
export async function assertAttack(c: VerdictClass): Promise<void> {
  await withTempDir(async (dir) => {
    const files = ["-o", `${dir}/r.json`, "--report", `${dir}/r.html`, "--summary", `${dir}/s.md`];
    const r = await runLoadlab(["attack", c.url, ...ATTACK_LOAD, ...files, "--junit", `${dir}/j.xml`]);
    assertEquals(r.code, c.code, r.stderr + r.stdout);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const label = verdictLine(r.stdout);
    assert(c.label.test(ownVerdict(label)), `attack verdict "${label}" matches ${c.label}`);
    const cells = latencyCells(r.stdout);
    if (c.noSamples) {
      assertEquals(cells, ["-", "-", "-", "-", "-", "-", "-"], r.stdout);
      assert(/Slowest: +-\n/.test(r.stdout) && /Average: +-\n/.test(r.stdout), r.stdout);
      assertEquals(results.runs[0].requests, 0);
    } else {
      assert(cells.every((cell) => /^[\d.]+ (µs|ms|s)$/.test(cell)), `latency cells measured: ${cells}`);
    }
    // The report's badge is the same verdict; its latency cells have no value without a sample.
    const page = pageDataOf(await Deno.readTextFile(`${dir}/r.html`));
    assertEquals(page.overview[0].verdict, label);
    assertEquals(page.runs[0].verdict, label);
    if (c.noSamples) {
      assertEquals(page.overview[0].metrics.p99.mean, null);
      assertEquals(page.runs[0].latencyMs.p50, null);
    }
    const summary = await Deno.readTextFile(`${dir}/s.md`);
    assert(/^1 run\.$/m.test(summary), `one run is "1 run.": ${summary}`);
    const row = summary.split("\n").find((line) => line.startsWith("| attack |"));
    assert(row, summary);
    assert(row.includes(escapeMarkdown(label)), `summary row carries the verdict: ${row}`);
    if (c.noSamples) assert(row.includes("| – | – |"), `no p50/p99 in the summary without samples: ${row}`);
    const junit = await Deno.readTextFile(`${dir}/j.xml`);
    assert(junit.includes(`<testsuite name="attack"`), junit);
    // A run without a response fails the job without --strict too: its JUnit file says so.
    assertEquals(junit.includes('name="got a response"'), c.noSamples, junit);
    assertEquals(junit.includes('<failure type="no-response"'), c.noSamples, junit);
    // Under --strict a flagged run is a failing "run verdict" test case, and the exit code says so.
    const strict = await runLoadlab([
      "attack",
      c.url,
      ...ATTACK_LOAD,
      "-q",
      "--strict",
      "--junit",
      `${dir}/k.xml`,
      // A latency rule no response can break still fails without a sample, never passing on a stored 0.
      "--threshold",
      "p99<1000s",
    ]);
    assertEquals(strict.code, c.strictCode, strict.stderr);
    assert(strict.stdout.includes(`${c.noSamples ? "FAIL" : "PASS"}  p99<1000s  (attack: `), strict.stdout);
    const strictJunit = await Deno.readTextFile(`${dir}/k.xml`);
    const flagged = label !== "ok";
    assertEquals(strictJunit.includes('<failure type="verdict"'), flagged, strictJunit);
  });
}

/**
 * `run` with the class's target (`subject`) alone, then beside a healthy built-in target (`good`), then
 * that pair under `--strict` when that changes the code: the same exit codes as `attack`, whatever the
 * number of targets.
 */
export async function assertRun(c: VerdictClass): Promise<void> {
  await withTempDir(async (dir) => {
    const pair = { good: null, subject: c.url };
    const cases: Array<{ name: string; targets: Record<string, string | null>; strict: boolean }> = [
      { name: "alone", targets: { subject: c.url }, strict: false },
      { name: "beside", targets: pair, strict: false },
    ];
    // Under --strict a run that exits 4 still exits 4 (4 wins over 6): attack's test shows it once.
    if (c.strictCode !== c.code || c.code === 0) cases.push({ name: "strict", targets: pair, strict: true });
    for (const { name, targets, strict } of cases) {
      const file = `${dir}/${name}.yaml`;
      await Deno.writeTextFile(file, experiment(name, targets));
      const r = await runLoadlab([
        "run",
        file,
        "--out-dir",
        `${dir}/${name}`,
        ...(strict ? ["--strict"] : []),
      ]);
      assertEquals(r.code, strict ? c.strictCode : c.code, `run ${name}: ${r.stderr}${r.stdout}`);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/${name}/results.json`));
      const line = r.stdout.split("\n").find((l) => / subject\/one /.test(l));
      assert(line, r.stdout);
      const label = line.endsWith("]") ? line.slice(line.lastIndexOf("  [") + 3, -1) : "";
      assert(
        c.label.test(ownVerdict(label)),
        `run ${name}: the run line's verdict "${label}" matches ${c.label}`,
      );
      if (c.noSamples) assert(line.includes("p50 -  p99 -"), `no p50/p99 without samples: ${line}`);
      const good = r.stdout.split("\n").find((l) => / good\/one /.test(l));
      // The healthy target's run carries none of the subject's flags: ok, or generator-bound when other
      // processes take the cores (a finding about the machine, said beside it).
      if (good) {
        assert(/\[(ok|generator-bound[^\]]*)\]$/.test(good), `the healthy target's run is ok: ${good}`);
      }
      assertEquals(results.runs.find((run) => run.variant === "subject")?.requests === 0, c.noSamples);
    }
  });
}

/** An experiment of one count load against `targets` (null: the built-in target). */
function experiment(name: string, targets: Record<string, string | null>): string {
  const lines = Object.entries(targets).map(([key, url]) =>
    `  ${key}: ${url === null ? "{ kind: builtin }" : `{ url: ${url} }`}`
  );
  return `name: ${name}\ntargets:\n${lines.join("\n")}\n` +
    `loads:\n  one: { model: count, requests: ${REQUESTS}, connections: 2, timeout: 2s }\n`;
}

/** "ok", or the flags, from the terminal summary's first line. */
function verdictLine(stdout: string): string {
  const first = stdout.split("\n")[0];
  assert(first.startsWith("Verdict: "), stdout);
  return first.slice("Verdict: ".length);
}
