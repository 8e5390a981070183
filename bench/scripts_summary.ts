/**
 * @module
 * The scripts bench's rounds and what it concludes from them: each side's req/s, CPU per request and how
 * busy the target's core was, the medians of the rounds' ratios (a drifting machine moves every side of a
 * round alike), and the lines the terminal shows, each figure beside its goal and what qualifies it: a
 * side that kept the target's core busy measured the target, so its ratio over k6 is a floor.
 */
import { median } from "../results/stats.ts";

export interface Round {
  fixedRps: number;
  scriptRps: number;
  k6Rps: number | null;
  /** k6's own CPU per request (its process, reaped), beside loadlab's. */
  k6CpuUs: number | null;
  /**
   * How busy nginx's core was (% of the side's wall time) on the fixed request and on the k6 script: at
   * 95% and over the side measured the target's rate, and a ratio over k6 is a floor.
   */
  fixedTargetBusyPct: number | null;
  k6ScriptTargetBusyPct: number | null;
  fixedCpuUs: number | null;
  scriptCpuUs: number | null;
  scriptVsFixed: number;
  scriptVsK6: number | null;
  /** k6's one-GET script converted and run on loadlab. */
  k6ScriptRps: number;
  k6ScriptCpuUs: number | null;
  /** Against the fixed request of the round (the script sessions' goal, >= 0.6x, holds for it too). */
  k6ScriptVsFixed: number;
  k6ScriptVsK6: number | null;
  /**
   * The k6 login script converted on loadlab, and under k6 (null without k6), against the built-in target.
   */
  k6LoginRps: number;
  /** The generator's CPU a request of the k6 login script on loadlab, and of the session login script. */
  k6LoginCpuUs?: number | null;
  loginCpuUs?: number | null;
  k6LoginOnK6Rps: number | null;
  loginSessionsPerSec: number;
  loginRps: number;
  loginFailed: number;
}

/**
 * A target core busy this share of a side's time or more set that side's rate (the ratio is then a floor).
 */
const TARGET_BOUND_PCT = 95;

type Summary = ReturnType<typeof summarize>;

/** The rounds' medians (each ratio the median of the rounds' ratios, so a drifting machine cancels). */
export function summarize(rounds: Round[], withK6: boolean) {
  const med = (f: (r: Round) => number | null) => median(rounds.map((r) => f(r) ?? NaN));
  const k6Med = (f: (r: Round) => number | null) => withK6 ? med(f) : null;
  return {
    fixedRpsMedian: med((r) => r.fixedRps),
    scriptRpsMedian: med((r) => r.scriptRps),
    k6RpsMedian: k6Med((r) => r.k6Rps),
    k6CpuUsMedian: k6Med((r) => r.k6CpuUs),
    scriptVsFixedMedian: med((r) => r.scriptVsFixed),
    scriptVsK6Median: k6Med((r) => r.scriptVsK6),
    fixedCpuUsMedian: med((r) => r.fixedCpuUs),
    scriptCpuUsMedian: med((r) => r.scriptCpuUs),
    fixedTargetBusyPctMedian: med((r) => r.fixedTargetBusyPct),
    k6ScriptTargetBusyPctMedian: med((r) => r.k6ScriptTargetBusyPct),
    k6ScriptRpsMedian: med((r) => r.k6ScriptRps),
    k6ScriptCpuUsMedian: med((r) => r.k6ScriptCpuUs),
    k6ScriptVsFixedMedian: med((r) => r.k6ScriptVsFixed),
    k6ScriptVsK6Median: k6Med((r) => r.k6ScriptVsK6),
    k6LoginRpsMedian: med((r) => r.k6LoginRps),
    k6LoginVsK6Median: k6Med((r) => r.k6LoginRps / r.k6LoginOnK6Rps!),
    loginSessionsPerSecMedian: med((r) => r.loginSessionsPerSec),
    loginRpsMedian: med((r) => r.loginRps),
  };
}

/** The summary as the terminal shows it, each figure with its goal and what qualifies it. */
export function summaryLines(s: Summary, rounds: number): string[] {
  const x = (v: number | null, goal: number) =>
    v === null ? "vs k6: skipped (k6 not built)" : `${v.toFixed(2)}x k6 (goal >= ${goal}x)`;
  const busy = (v: number) => Number.isFinite(v) ? `${Math.round(v)}%` : "unknown";
  const lines = [
    `fixed ${Math.round(s.fixedRpsMedian)} req/s, script ${Math.round(s.scriptRpsMedian)} req/s: ` +
    `${s.scriptVsFixedMedian.toFixed(3)}x (median of ${rounds} rounds' ratios; goal >= 0.6x)`,
    s.k6RpsMedian === null
      ? "k6: skipped (not built)"
      : `k6 ${Math.round(s.k6RpsMedian)} req/s, ${s.k6CpuUsMedian!.toFixed(1)} us CPU per request: script ${
        x(s.scriptVsK6Median, 5)
      }`,
    `generator CPU per request (medians): fixed ${s.fixedCpuUsMedian.toFixed(1)} us, script ${
      s.scriptCpuUsMedian.toFixed(1)
    } us`,
    `k6 script on loadlab: ${Math.round(s.k6ScriptRpsMedian)} req/s, ${
      s.k6ScriptCpuUsMedian.toFixed(1)
    } us CPU per request, ` +
    `${s.k6ScriptVsFixedMedian.toFixed(3)}x the fixed request (goal >= 0.6x); ${x(s.k6ScriptVsK6Median, 5)}`,
    `target core busy: fixed request ${busy(s.fixedTargetBusyPctMedian)}, k6 script on loadlab ${
      busy(s.k6ScriptTargetBusyPctMedian)
    }`,
    `login + 3 requests session (built-in target): ${Math.round(s.loginSessionsPerSecMedian)} sessions/s, ` +
    `${Math.round(s.loginRpsMedian)} req/s`,
    `k6's login + 3 requests script on loadlab: ${Math.round(s.k6LoginRpsMedian)} req/s; ${
      x(s.k6LoginVsK6Median, 3)
    }`,
  ];
  if (s.k6ScriptTargetBusyPctMedian >= TARGET_BOUND_PCT) {
    lines.push(
      `the target's core was ${
        busy(s.k6ScriptTargetBusyPctMedian)
      } busy under the k6 script on loadlab: its req/s is ` +
        "the target's, and its ratio over k6 a floor (k6 left the target idle part of the time)",
    );
  }
  return lines;
}
