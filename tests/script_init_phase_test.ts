/**
 * A session script's top level (a k6 script's init code) misbehaving, through the real CLI: a loop that
 * never yields is named within seconds (exit 2), never waited out as an await; Ctrl-C or SIGTERM while the
 * top level runs (busy or awaiting) exits 130 or 143 within a second or two with results.json written, no
 * run in it, incomplete and naming the phase; a second signal right after the first still leaves it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { k6Fixture } from "./k6_run.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const FAULTS = new URL("./fixtures/scripts/init_faults.ts", import.meta.url).pathname;
const decoder = new TextDecoder();

function start(args: string[], dir: string, env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", ...args, "--out-dir", `${dir}/out`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
    signal: AbortSignal.timeout(120_000),
  }).spawn();
}

Deno.test("a k6 script whose init code never yields is named within seconds: exit 2, one line", () =>
  withTempDir(async (dir) => {
    const startedMs = performance.now();
    const out = await start([k6Fixture("busy_init.js")], dir, {}).output();
    const seconds = (performance.now() - startedMs) / 1000;
    const text = decoder.decode(out.stdout) + decoder.decode(out.stderr);
    assertEquals(out.code, 2, text);
    ok(/busy_init\.js: its top level ran \d+ s without yielding/.test(text), text);
    ok(!text.includes("never settles"), text);
    // The type check and the isolate's start come first: tens of seconds only on a machine this busy.
    ok(seconds < 45, `${seconds.toFixed(1)} s`);
  }));

/** Starts the faults script, waits for its top level to run, sends `signals`: the outcome. */
async function signalDuringInit(fault: string, signals: Deno.Signal[], dir: string) {
  const log = `${dir}/log`;
  const child = start([FAULTS], dir, { INIT_FAULT: fault, SCRIPT_LOG: log });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !(await Deno.readTextFile(log).catch(() => "")).includes("init")) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const signalledMs = performance.now();
  for (const signal of signals) child.kill(signal);
  const out = await child.output();
  const tookMs = performance.now() - signalledMs;
  const text = decoder.decode(out.stdout) + decoder.decode(out.stderr);
  const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`).catch(() => "null"));
  return { code: out.code, tookMs, text, results };
}

for (
  const [fault, signals, code] of [
    ["busy", ["SIGTERM"], 143],
    ["hang", ["SIGINT"], 130],
    ["hang", ["SIGTERM", "SIGTERM"], 143],
  ] as const
) {
  const doing = fault === "busy" ? "never yields" : "awaits";
  Deno.test(`${signals.join(" + ")} while the top level ${doing}: exit ${code}, results.json written`, () =>
    withTempDir(async (dir) => {
      const { code: exit, tookMs, text, results } = await signalDuringInit(fault, [...signals], dir);
      assertEquals(exit, code, text);
      // Under a second when idle; the bound leaves room for a machine whose cores are taken.
      ok(tookMs < 3_000, `ended ${Math.round(tookMs)} ms after the signal`);
      ok(results !== null, `no results.json: ${text}`);
      assertEquals([results.runs, results.complete], [[], false]);
      ok(String(results.stoppedIn).includes("top level"), JSON.stringify(results.stoppedIn));
    }));
}
