/**
 * @module
 * The workers' done summaries added up into the run's: active time, connects in flight, TLS, WebSocket
 * totals, and the workers loadlab had to end with the answers whose latencies ended with them.
 */
import type { WsSample } from "../http/ws/stats.ts";
import { addWsParts } from "../../results/ws_totals.ts";
import type { LoadRunSummary } from "../load/load_run_types.ts";

/** The done workers' summaries, added up. */
export class DoneTotals {
  #activeMs = 0;
  #maxConnectsInFlight = 0;
  #logError: string | undefined;
  #dataRanOut = 0;
  stuck = 0;
  exited = 0;
  /** Workers ended when loadlab's memory passed `overMemory.limitMb`. */
  memory = 0;
  overMemory: { limitMb: number; rssMb: number } | undefined;
  /** Answers a stuck worker counted that reached no sample: counted, their latencies lost with it. */
  unrecorded = 0;
  #endedBy: LoadRunSummary["endedBy"];
  #tlsSession: LoadRunSummary["tlsSession"] = null;
  #maxStreamsPerConnection = 0;
  readonly #ws: WsSample[] = [];

  add(summary: LoadRunSummary): void {
    this.addActive(summary.activeMs);
    // Each worker's own maximum, summed: an upper bound of the run's.
    this.#maxConnectsInFlight += summary.maxConnectsInFlight;
    this.#logError ??= summary.logError;
    this.#endedBy ??= summary.endedBy;
    this.#tlsSession = mergeTlsSessions(this.#tlsSession, summary.tlsSession);
    if (summary.dataRanOut) this.#dataRanOut++;
    if (summary.ws) this.#ws.push(summary.ws);
    this.#maxStreamsPerConnection = Math.max(this.#maxStreamsPerConnection, summary.maxStreamsPerConnection);
  }

  /** A worker's time from the measured start to the end of its load: the run's is the longest. */
  addActive(activeMs: number): void {
    this.#activeMs = Math.max(this.#activeMs, activeMs);
  }

  summary(): LoadRunSummary {
    return {
      activeMs: this.#activeMs,
      maxConnectsInFlight: this.#maxConnectsInFlight,
      tlsSession: this.#tlsSession,
      maxStreamsPerConnection: this.#maxStreamsPerConnection,
      ...(this.#ws.length > 0 ? { wsResult: addWsParts(this.#ws) } : {}),
      ...(this.#logError ? { logError: this.#logError } : {}),
      ...(this.#dataRanOut > 0 ? { dataRanOutWorkers: this.#dataRanOut } : {}),
      ...(this.stuck > 0 ? { stuckWorkers: this.stuck } : {}),
      ...(this.unrecorded > 0 ? { unrecordedLatencies: this.unrecorded } : {}),
      ...(this.exited > 0 ? { exitedWorkers: this.exited } : {}),
      ...(this.overMemory ? { memoryCut: { ...this.overMemory, workers: this.memory } } : {}),
      ...(this.#endedBy ? { endedBy: this.#endedBy } : {}),
    };
  }
}

/** The first worker's negotiated session, with every worker's handshake counts added up. */
function mergeTlsSessions(
  first: LoadRunSummary["tlsSession"],
  next: LoadRunSummary["tlsSession"],
): LoadRunSummary["tlsSession"] {
  if (first === null || next === null) return first ?? next;
  const sum = (a: number | null, b: number | null) => a === null || b === null ? a ?? b : a + b;
  return {
    ...first,
    handshakes: sum(first.handshakes, next.handshakes),
    resumed: sum(first.resumed, next.resumed),
  };
}
