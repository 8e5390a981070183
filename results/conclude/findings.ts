/**
 * @module
 * The "Findings" block of reports and `--summary`: changes by point, untrusted runs, expectations. Pure.
 */
import type { Analysis, ResultsFile, RunResult } from "../mod.ts";
import { judgeExpectation } from "./expect_verdict.ts";
import { metricValue, pointKey } from "./noise_samples.ts";
import { flaggedRuns, runVerdict } from "./run_verdict.ts";
import { formatDurationMs, formatNumber } from "../text_format.ts";
import { explainKnees } from "./knee/explained.ts";
import { type BroadcastFinding, concludeBroadcasts } from "./broadcast.ts";
import { capacityQualifiers, capacityText } from "./capacity.ts";
import { changePct, meanCi } from "../stats.ts";

/** A sentence of the block; `tone` colours it (warn: qualified or flagged; good/bad: a verdict). */
interface Sentence {
  text: string;
  tone: "plain" | "warn" | "good" | "bad";
}

/** One sentence of the block, with the kind of finding it is. */
interface Finding extends Sentence {
  kind: FindingKind;
}

/** At most this many load sentences; the overview holds the rest. */
const MAX_LOAD_FINDINGS = 12;
const MAX_NAMED_RUNS = 8;

type Metric = "rps" | "p99" | "success";
/** A variant's runs at one point: their analysis group, means, and the CI over repeats where it has one. */
type Cell = ReturnType<typeof cellOf>;

/** Non-probe runs by "load · sweep point", then by variant, in the order they appear. */
function byPoint(runs: RunResult[]): Map<string, Map<string, RunResult[]>> {
  const variant = (run: RunResult) => run.variant ?? run.name.replace(/#\d+$/, "");
  const points = Map.groupBy(runs.filter((r) => !r.probe), pointKey);
  return new Map([...points].map(([key, at]) => [key, Map.groupBy(at, variant)]));
}

/** The stored analysis group holding these runs, for its CI over repeats. */
function groupOf(analysis: Analysis | undefined, runs: RunResult[]) {
  return analysis?.groups.find((g) => g.runs.includes(runs[0].name));
}

function cellOf(variant: string, runs: RunResult[], analysis: Analysis | undefined) {
  const group = groupOf(analysis, runs);
  const mean = {} as Record<Metric, number>;
  const ci95: Partial<Record<Metric, number>> = {};
  for (const m of ["rps", "p99", "success"] as const) {
    mean[m] = meanCi(runs.map((r) => metricValue(r, m))).mean;
    const ci = group?.metrics[m]?.ci95;
    if (group && group.metrics[m].n > 1 && Number.isFinite(ci)) ci95[m] = ci!;
  }
  return { variant, runs, group, mean, ci95 };
}

/** "8.3 ± 1.0 req/s", "p99 29.23 ms ± 3.75 ms", "success 100.00%": a mean with its CI when there is one. */
function fmt(m: Metric, x: number, ci: number | undefined): string {
  const pm = (text: string) => (ci === undefined ? "" : ` ± ${text}`);
  if (m === "rps") {
    const digits = x >= 100 ? 0 : 1;
    return `${formatNumber(x, digits)}${pm(formatNumber(ci ?? 0, digits))} req/s`;
  }
  if (m === "success") {
    return Number.isFinite(x)
      ? `success ${formatNumber(x, 2)}%${pm(`${formatNumber(ci ?? 0, 2)} points`)}`
      : "success -";
  }
  return `p99 ${formatDurationMs(x)}${pm(formatDurationMs(ci ?? 0))}`;
}

function describeCell(c: Cell): string {
  const flagged = c.runs.filter((r) => !runVerdict(r).ok).length;
  const mark = flagged
    ? ` [${flagged === c.runs.length ? "flagged" : `${flagged} of ${c.runs.length} flagged`}]`
    : "";
  const parts = (["rps", "p99", "success"] as const).map((m) => fmt(m, c.mean[m], c.ci95[m]));
  return `${c.variant} ${parts.join(", ")}${mark}`;
}

/** "p99 −99.6% (beyond noise)" for each metric the analysis compared, else the plain change. */
function changes(c: Cell, base: Cell, analysis: Analysis | undefined): string {
  const parts: Array<{ text: string; notJudged: string | null }> = [];
  for (const m of ["rps", "p99", "success"] as const) {
    const stored = c.group && analysis?.comparisons.find((x) => x.group === c.group!.key && x.metric === m);
    const pct = stored ? stored.changePct : changePct(base.mean[m], c.mean[m]);
    if (!Number.isFinite(pct)) continue;
    const label = m === "rps" ? "req/s" : m;
    const notJudged = stored?.noiseUnknown ? stored.noiseNotJudged ?? "too few repeats or too short" : null;
    const noise = !stored || notJudged !== null ? "" : stored.beyondNoise ? " beyond noise" : " within noise";
    parts.push({ text: `${label} ${pct > 0 ? "+" : ""}${formatNumber(pct, 1)}%${noise}`, notJudged });
  }
  if (parts.length === 0) return "";
  const reasons = [...new Set(parts.map((p) => p.notJudged))];
  const text = reasons.length === 1
    ? parts.map((p) => p.text).join(", ") + (reasons[0] ? ` (noise not judged: ${reasons[0]})` : "")
    : parts.map((p) => p.text + (p.notJudged ? ` (noise not judged: ${p.notJudged})` : "")).join(", ");
  return `${c.variant} against ${base.variant}: ${text}`;
}

function loadFindings(results: ResultsFile): Sentence[] {
  const out: Sentence[] = [];
  for (const [point, variants] of byPoint(results.runs)) {
    const cells = [...variants].map(([v, runs]) => cellOf(v, runs, results.analysis));
    const base = cells.find((c) => c.variant === results.experiment.baseline) ?? cells[0];
    const compared = cells.filter((c) => c !== base).map((c) => changes(c, base, results.analysis));
    const said = compared.filter(Boolean);
    const text = `${point}: ${cells.map(describeCell).join("; ")}` +
      (said.length ? `. ${said.join("; ")}.` : ".");
    out.push({ text, tone: "plain" });
  }
  if (out.length > MAX_LOAD_FINDINGS) {
    const more = out.length - MAX_LOAD_FINDINGS;
    const rest = { text: `… ${more} more loads and sweep points in the overview.`, tone: "plain" } as const;
    return [...out.slice(0, MAX_LOAD_FINDINGS), rest];
  }
  return out;
}

function flaggedFinding(results: ResultsFile): Sentence[] {
  const flagged = flaggedRuns(results.runs);
  if (flagged.length === 0) return [];
  const named = flagged.slice(0, MAX_NAMED_RUNS).map(({ run, verdict }) => `${run.name} (${verdict.label})`);
  const more = flagged.length > MAX_NAMED_RUNS ? ` and ${flagged.length - MAX_NAMED_RUNS} more` : "";
  const total = results.runs.filter((r) => !r.probe).length;
  return [{
    text: `${flagged.length} of ${total} runs flagged, their numbers not to be trusted as the target's: ` +
      `${named.join(", ")}${more}.`,
    tone: "warn",
  }];
}

/** A broadcast sweep's answer, what saturated above its knee, and what qualifies it (warn). */
function broadcastFindings(b: BroadcastFinding): Sentence[] {
  const clean = b.outcome === "knee" || b.outcome === "no knee";
  const out: Sentence[] = [{ text: b.sentence, tone: clean ? "plain" : "warn" }];
  if (b.saturated !== null) out.push({ text: b.saturated, tone: "plain" });
  if (b.qualifiers !== null) out.push({ text: b.qualifiers, tone: "warn" });
  return out;
}

type FindingKind = "broadcast" | "load" | "knee" | "capacity" | "flagged" | "expect";

/** One kind of finding: what it says (as docs/REFERENCE.md lists it) and its sentences of a results file. */
interface FindingRule {
  kind: FindingKind;
  says: string;
  of: (results: ResultsFile) => Sentence[];
}

/** The findings in the order the block lists them; docs/REFERENCE.md lists them again (a test compares). */
export const FINDINGS: FindingRule[] = [{
  kind: "broadcast",
  says: "the members a broadcast sweep's target held, where fan-out bent, what saturated, the flagged points",
  of: (results) => concludeBroadcasts(results).flatMap(broadcastFindings),
}, {
  kind: "load",
  says: "per load and sweep point, the variants' req/s, p99, success and change against the baseline",
  of: loadFindings,
}, {
  kind: "knee",
  says: "what saturated at a sweep's knee, citing the target telemetry that changed most",
  of: (results) => explainKnees(results).map((k) => ({ text: k.sentence, tone: "plain" })),
}, {
  kind: "capacity",
  says: "a capacity search's result: the target's capacity, or what loadlab sustained on runs it limited",
  of: (results) =>
    (results.analysis?.searches ?? []).map((s) => ({
      text: capacityText(s, results.runs),
      tone: capacityQualifiers(s, results.runs).length ? "warn" : "plain",
    })),
}, {
  kind: "flagged",
  says: "how many runs are flagged, naming them with their verdicts: their numbers are not the target's",
  of: flaggedFinding,
}, {
  kind: "expect",
  says: "each expected direction (`expect:`): reproduced here, not reproduced here or not judged, with why",
  of: (results) => (results.experiment.expect ?? []).map((e) => judgeExpectation(e, results)),
}];

/** The findings of a results file, in `FINDINGS` order. */
export function buildFindings(results: ResultsFile): Finding[] {
  return FINDINGS.flatMap((f) => f.of(results).map((sentence) => ({ kind: f.kind, ...sentence })));
}
