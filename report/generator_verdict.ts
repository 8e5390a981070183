/**
 * @module
 * Who held a run up, for terminal and page alike, following the runner's flags rather than judging again.
 */
import type { RunResult } from "../results/mod.ts";
import { formatCount, formatDurationMs, protocolTag } from "../results/text_format.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { formatShare } from "../results/conclude/send_counts.ts";
import { sendsOf } from "../results/conclude/responses.ts";
import { generatorSaturation, saturationText } from "../results/conclude/generator_saturation.ts";
import { crowdOpening, crowdOpeningText } from "../results/conclude/planned_connections.ts";

/** The verdict on one run: which side limited it, said once, and the numbers it rests on. */
interface GeneratorVerdict {
  kind: "generator-bound" | "server-bound" | "kept-up" | "closed";
  sentence: string;
  /** Label and value, in reading order; only the facts the results file holds. */
  facts: Array<[string, string]>;
}

/** Whether sends followed a schedule (open models, `-R`), so they could be late or wait. */
function hasSchedule(run: RunResult): boolean {
  return run.targetRps !== null || run.lateSends > 0 || (run.serverBoundSends ?? 0) > 0 ||
    run.droppedSends > 0;
}

function sentenceOf(run: RunResult, sends: number): Pick<GeneratorVerdict, "kind" | "sentence"> {
  const waited = run.serverBoundSends ?? 0;
  const busy = generatorSaturation(run.intervals);
  if (run.generatorBound && busy?.bound) {
    return {
      kind: "generator-bound",
      sentence: `generator-bound: ${saturationText(busy)}, so requests waited for loadlab, not only for ` +
        "the target; these latencies include loadlab's own queue",
    };
  }
  if (run.generatorBound) {
    return {
      kind: "generator-bound",
      sentence: `generator-bound: ${formatShare(run.lateSends / sends)} of sends went out late because ` +
        "loadlab itself was behind; these numbers describe the generator, not the target",
    };
  }
  if (run.serverBound) {
    const share = formatShare(waited / sends);
    return {
      kind: "server-bound",
      sentence: `server-bound: ${share} of sends waited for a connection the server held`,
    };
  }
  if (!hasSchedule(run)) {
    return {
      kind: "closed",
      sentence: "closed model: each connection sends when its previous response ends, so no send is late",
    };
  }
  // The same dropped share the run verdict flags, so the two never disagree.
  const dropped = run.droppedSends > 0
    ? `; ${formatShare(run.droppedSends / sends)} of intended sends dropped`
    : "";
  return {
    kind: "kept-up",
    sentence: `kept the schedule: ${formatShare(run.lateSends / sends)} of sends late, ` +
      `${formatShare(waited / sends)} waited for a connection${dropped}`,
  };
}

/** The facts of the generator side of a run that the file records (older files lack some). */
function factsOf(run: RunResult, sends: number): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  const counted = (n: number) =>
    `${formatCount(n)} (${formatShare(n / sends)} of ${formatCount(sends)} sends)`;
  if (hasSchedule(run)) {
    facts.push(["late sends (generator behind)", counted(run.lateSends)]);
    if (run.serverBoundSends !== undefined) {
      facts.push(["server-bound sends (waited for a connection)", counted(run.serverBoundSends)]);
    }
    facts.push(["dropped sends (later than the bound)", formatCount(run.droppedSends)]);
  }
  const busy = generatorSaturation(run.intervals);
  if (busy !== null) facts.push(["load worker (busiest, per interval)", saturationText(busy)]);
  facts.push(["run verdict", runVerdict(run).label]);
  facts.push([
    "flags",
    `generatorBound ${run.generatorBound}` +
    (run.serverBound !== undefined ? `, serverBound ${run.serverBound}` : ""),
  ]);
  if (run.preConnected !== undefined) {
    const estimate = run.preConnectEstimateMs;
    const sized = typeof estimate === "number" ? ` (sized with a ${formatDurationMs(estimate)} connect)` : "";
    facts.push(["pre-connected pool", `${formatCount(run.preConnected)} connections at t0${sized}`]);
  }
  if (run.maxConnectsInFlight !== undefined) {
    facts.push(["max connects in flight", formatCount(run.maxConnectsInFlight)]);
  }
  const crowd = crowdOpening(run);
  if (crowd !== null) facts.push(["crowd", crowdOpeningText(crowd)]);
  if (run.generatorWarmupMs !== undefined) {
    facts.push([
      "generator warm-up",
      run.generatorWarmupMs > 0
        ? `${formatDurationMs(run.generatorWarmupMs)} against an in-process sink, before t0`
        : "skipped",
    ]);
  }
  if (run.transport !== undefined) {
    const fallback = run.transportFallback ? ` (not epoll: ${run.transportFallback})` : "";
    facts.push(["transport", run.transport + fallback]);
  }
  if (run.protocol !== undefined) {
    const most = run.maxStreamsPerConnection === undefined
      ? ""
      : `, at most ${run.maxStreamsPerConnection} open at once`;
    facts.push(["protocol", run.protocol === "http1" ? "HTTP/1.1" : protocolTag(run) + most]);
  }
  const kernel = hostTcpLine(run);
  if (kernel !== null) facts.push([HOST_TCP_LABEL, kernel]);
  return facts;
}

/** Label of the kernel's counters: they count every process of the generator's host, not this run. */
export const HOST_TCP_LABEL = "kernel TCP (this host, all processes)";

/** The host's kernel TCP counters over the run in words; null when the file has none. */
export function hostTcpLine(run: RunResult): string | null {
  const tcp = run.hostTcp;
  if (tcp === undefined) return null;
  const parts = [
    `${formatCount(tcp.listenOverflows)} accept-queue overflows`,
    `${formatCount(tcp.listenDrops)} listen drops`,
  ];
  if (tcp.synRetrans !== undefined) parts.push(`${formatCount(tcp.synRetrans)} SYN retransmits`);
  if (tcp.timeouts !== undefined) parts.push(`${formatCount(tcp.timeouts)} retransmit timeouts`);
  if (tcp.retransSegs !== undefined) parts.push(`${formatCount(tcp.retransSegs)} segments resent`);
  return parts.join(", ");
}

/** True when the kernel dropped or resent anything over the run (on this host, any process). */
export function hostTcpTroubled(run: RunResult): boolean {
  const tcp = run.hostTcp;
  if (tcp === undefined) return false;
  return tcp.listenOverflows + tcp.listenDrops + (tcp.synRetrans ?? 0) + (tcp.timeouts ?? 0) +
      (tcp.retransSegs ?? 0) > 0;
}

/** The verdict of a run, or null for a file that records nothing of the generator side. */
export function generatorVerdict(run: RunResult): GeneratorVerdict | null {
  const known = hasSchedule(run) || run.generatorBound || generatorSaturation(run.intervals) !== null ||
    run.transport !== undefined ||
    run.generatorWarmupMs !== undefined || run.preConnected !== undefined;
  if (!known) return null;
  const sends = sendsOf(run);
  return { ...sentenceOf(run, sends), facts: factsOf(run, sends) };
}
