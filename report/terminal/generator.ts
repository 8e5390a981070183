/**
 * @module
 * The generator block of the terminal summary: who limited the run, late, waiting and dropped sends,
 * start-up facts and what to do when the run was bound. Pure.
 */
import type { RunResult } from "../../results/mod.ts";
import { formatCount, formatDurationMs, protocolTag } from "../../results/text_format.ts";
import { generatorVerdict, HOST_TCP_LABEL, hostTcpLine, hostTcpTroubled } from "../generator_verdict.ts";
import { crowdOpening, crowdOpeningText } from "../../results/conclude/planned_connections.ts";

/** The verdict line, late, waiting and dropped counts, start-up facts, and a warning when bound. */
export function generatorLines(
  run: RunResult,
  bold: (text: string) => string,
  yellow: (text: string) => string,
): string[] {
  const v = generatorVerdict(run);
  if (v === null) return [];
  const bound = v.kind === "generator-bound" || v.kind === "server-bound";
  const hasSchedule = run.targetRps !== null || run.lateSends > 0;
  const out = [`${bold("Generator:")} ${bound ? yellow(v.sentence) : v.sentence}`];
  if (v.kind !== "closed") {
    out.push(
      `  Late sends: ${formatCount(run.lateSends)}, waited for a connection: ` +
        `${formatCount(run.serverBoundSends ?? 0)}, dropped sends: ${formatCount(run.droppedSends)}`,
    );
  }
  const startUp = startUpLine(run);
  if (startUp) out.push(`  Start-up: ${startUp}`);
  const crowd = crowdOpening(run);
  if (crowd !== null) out.push(`  Crowd: ${crowdOpeningText(crowd)}`);
  if (run.dataRanOutWorkers) {
    out.push(yellow(
      `  Data: rows ran out in ${formatCount(run.dataRanOutWorkers)} worker(s), which stopped sending ` +
        "there (whenDone: stop / order: unique): the run sent less than its load asked for.",
    ));
  }
  if (hostTcpTroubled(run)) {
    out.push(yellow(`  ${HOST_TCP_LABEL[0].toUpperCase()}${HOST_TCP_LABEL.slice(1)}: ${hostTcpLine(run)}`));
  }
  if (run.generatorBound && !hasSchedule) {
    out.push(yellow(
      "WARNING: the load worker was saturated: the load generator, not the target, limited this " +
        "run. Add workers (--workers), spread the crowd over machines (--segment), or do less per request.",
    ));
  } else if (run.generatorBound) {
    out.push(yellow(
      "WARNING: more than 1% of sends were late: the load generator, not the target, limited " +
        "this run. Lower the rate, add workers, or use a bigger machine.",
    ));
  } else if (run.serverBound) {
    out.push(yellow(
      "Server-bound: the target held every connection (at --max-connections, or connects slow): " +
        "the target, not the generator, limited this run.",
    ));
  }
  return out;
}

/** Pool, connects in flight, warm-up and transport on one line; empty when the file has none of them. */
function startUpLine(run: RunResult): string {
  const parts: string[] = [];
  if (run.preConnected !== undefined) parts.push(`${formatCount(run.preConnected)} pre-connected`);
  if (run.maxConnectsInFlight !== undefined) {
    parts.push(`at most ${formatCount(run.maxConnectsInFlight)} connects in flight`);
  }
  if (run.generatorWarmupMs !== undefined) {
    parts.push(
      run.generatorWarmupMs > 0
        ? `generator warm-up ${formatDurationMs(run.generatorWarmupMs)}`
        : "no warm-up",
    );
  }
  if (run.transport !== undefined) parts.push(`transport ${run.transport}`);
  if (protocolTag(run) !== "") {
    parts.push(`protocol ${protocolTag(run)} (at most ${run.maxStreamsPerConnection ?? "?"} open at once)`);
  }
  if (run.tlsMs) {
    const insecure = run.tls?.insecure ? ", certificates NOT verified (--insecure)" : "";
    parts.push(
      `TLS handshake mean ${formatDurationMs(run.tlsMs.mean)} p99 ${formatDurationMs(run.tlsMs.p99)}` +
        ` (${run.tls?.client ?? "?"} client${insecure})`,
    );
    const tls = run.tls;
    if (tls?.handshakes != null) parts.push(`${tls.resumed ?? 0} of ${tls.handshakes} handshakes resumed`);
    if (tls?.resumeNote) parts.push(tls.resumeNote);
  }
  return parts.join(", ");
}
