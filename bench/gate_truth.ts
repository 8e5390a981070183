/**
 * @module
 * The regression gate's truth table on this machine: `attack --baseline --fail-on "p99 +50%"` against the
 * built-in target for the same endpoint (self-compare), one made 20% slower, 2x and 4x slower, sleep-bound
 * (`/sleep?ms=N`) and CPU-bound (`/cpu?ms=N`), each on the machine as it is, beside a `nice 19` busy loop
 * on each core, and beside two `nice 0` busy loops (started and killed by pid here). Prints one markdown
 * row per case: the machine's load average, the exit code, and the p99 cell. Self-compare must never exit
 * 7; a sleep 2x or 4x slower exits 7 unless its own waits could explain it (8, with that reason). About
 * fifteen minutes on a busy machine:
 * `deno run -A bench/gate_truth.ts [seconds per run] [main.ts of the loadlab to check] [sleep,cpu] [dir]`;
 * with a dir, every run's results.json is kept there (`<state>-<kind>-<case>.json`) to judge again.
 */
import { startTarget } from "../targets/start.ts";

const seconds = Number(Deno.args[0] ?? 10);
const main = Deno.args[1] || new URL("../main.ts", import.meta.url).pathname;
const only = (Deno.args[2] ?? "sleep,cpu").split(",");
const keep = Deno.args[3];
const dir = keep ?? Deno.makeTempDirSync({ prefix: "loadlab-gate-truth-" });

/** The endpoints of one kind: its baseline and the slower cases, by name. */
const KINDS = {
  sleep: { base: "/sleep?ms=5", cases: { self: 5, "20%": 6, "2x": 10, "4x": 20 } },
  cpu: { base: "/cpu?ms=5", cases: { self: 5, "20%": 6, "2x": 10, "4x": 20 } },
} as const;

const STATES = {
  "as is": [] as string[][],
  "nice 19 loop per core": Array.from({ length: navigator.hardwareConcurrency }, () => ["-n", "19"]),
  "two nice 0 loops": [["-n", "0"], ["-n", "0"]],
};

async function attack(url: string, extra: string[]): Promise<{ code: number; stdout: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "attack", url, "-d", `${seconds}s`, "--no-live", ...extra],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

const loadavg = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

/** `metric`'s row of the gate's table: baseline, this run and the verdict cell (or its first word). */
function row(stdout: string, metric: string, whole: boolean): string {
  const line = stdout.split("\n").find((l) => l.includes(`│ ${metric} ms `));
  if (!line) return `(no ${metric} row)`;
  const [base, mine, verdict] = line.split("│").slice(3, -1).map((c) => c.trim());
  return whole ? `${base} | ${mine} | ${verdict}` : `${base} → ${mine}: ${verdict.split(":")[0]}`;
}

const target = await startTarget({ kind: "builtin" });
console.log(`| machine | kind | case | load avg | exit | p50 | baseline p99 | this p99 | p99 verdict |`);
console.log(`| --- | --- | --- | --- | ---: | --- | ---: | ---: | --- |`);
try {
  for (const [state, loops] of Object.entries(STATES)) {
    const busy = loops.map((nice) =>
      new Deno.Command("nice", { args: [...nice, "sh", "-c", "while :; do :; done"] }).spawn()
    );
    try {
      for (const [kind, { base, cases }] of Object.entries(KINDS).filter(([k]) => only.includes(k))) {
        const file = `${dir}/${state.replaceAll(" ", "-")}-${kind}-baseline.json`;
        const made = await attack(`${target.url}${base}`, ["-o", file]);
        if (made.code !== 0) {
          console.log(`| ${state} | ${kind} | baseline | ${loadavg()} | ${made.code} | | | |`);
        }
        for (const [name, ms] of Object.entries(cases)) {
          const url = `${target.url}${base.replace(/=[\d.]+$/, `=${ms}`)}`;
          const out = `${dir}/${state.replaceAll(" ", "-")}-${kind}-${name}.json`;
          const r = await attack(url, ["--baseline", file, "--fail-on", "p99 +50%", "-o", out]);
          const cells = `${row(r.stdout, "p50", false)} | ${row(r.stdout, "p99", true)}`;
          console.log(`| ${state} | ${kind} | ${name} | ${loadavg()} | ${r.code} | ${cells} |`);
        }
      }
    } finally {
      for (const child of busy) {
        child.kill("SIGKILL");
        await child.status;
      }
    }
  }
} finally {
  await target.stop();
  if (!keep) Deno.removeSync(dir, { recursive: true });
}
