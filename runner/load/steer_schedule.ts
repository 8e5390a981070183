/**
 * @module
 * A steered run's open-model schedule, pure: a pause sends nothing until a resume, ending a phase moves later
 * ones earlier, a stop cuts the rest; sends before a change's instant never move, so a pacer keeps its index.
 */
import type { Phase } from "../config_fields.ts";
import { summedMs } from "./models/fields.ts";

/** A change on the schedule's time axis (ms from the start, warm-up included). */
export interface ScheduleChange {
  atMs: number;
  action: "pause" | "resume" | "rate" | "connections" | "end-phase" | "stop";
  ratePerSec?: number;
}

type Span = ReturnType<typeof spansOf>[number];

/** `phases` with `changes` (in time order) applied; phases of zero length are left out. */
export function steeredPhases(phases: readonly Phase[], changes: readonly ScheduleChange[]): Phase[] {
  let spans = spansOf(phases);
  for (const change of changes) spans = applyChange(spans, change);
  return spans.filter((s) => s.endMs > s.startMs).map((s) => ({
    durationMs: s.endMs - s.startMs,
    ratePerSec: s.paused ? 0 : s.r0,
    ...(s.paused || s.r1 !== s.r0 ? { rampToPerSec: s.paused ? 0 : s.r1 } : {}),
    ...(s.name !== undefined ? { name: s.name } : {}),
  }));
}

export function steeredDurationMs(phases: readonly Phase[], changes: readonly ScheduleChange[]): number {
  return summedMs(steeredPhases(phases, changes));
}

function spansOf(phases: readonly Phase[]) {
  let startMs = 0;
  return phases.map((p, phase) => {
    const span = {
      startMs,
      endMs: startMs + p.durationMs,
      r0: p.ratePerSec,
      r1: p.rampToPerSec ?? p.ratePerSec,
      /** Index of the planned phase this span belongs to. */
      phase,
      paused: false,
      ...(p.name !== undefined ? { name: p.name } : {}),
    };
    startMs = span.endMs;
    return span;
  });
}

function applyChange(spans: Span[], change: ScheduleChange): Span[] {
  const endMs = spans.at(-1)?.endMs ?? 0;
  const atMs = Math.min(Math.max(change.atMs, 0), endMs);
  const cut = splitAt(spans, atMs);
  const from = cut.findIndex((s) => s.startMs >= atMs);
  if (from === -1) return cut;
  const before = cut.slice(0, from), after = cut.slice(from);
  const phase = after[0].phase;
  switch (change.action) {
    case "rate":
      return [
        ...before,
        ...after.map((s) => s.phase === phase ? { ...s, r0: change.ratePerSec!, r1: change.ratePerSec! } : s),
      ];
    case "pause":
    case "resume":
      return [...before, ...after.map((s) => ({ ...s, paused: change.action === "pause" }))];
    case "end-phase": {
      const rest = after.filter((s) => s.phase !== phase);
      const shiftMs = (rest[0]?.startMs ?? atMs) - atMs;
      return [
        ...before,
        ...rest.map((s) => ({ ...s, startMs: s.startMs - shiftMs, endMs: s.endMs - shiftMs })),
      ];
    }
    case "stop":
      return before;
    case "connections":
      return cut;
  }
}

/** `spans` with the one containing `atMs` split there (a ramp's rate interpolated at the cut). */
function splitAt(spans: Span[], atMs: number): Span[] {
  return spans.flatMap((s) => {
    if (!(s.startMs < atMs && atMs < s.endMs)) return [s];
    const rAt = s.r0 + ((s.r1 - s.r0) * (atMs - s.startMs)) / (s.endMs - s.startMs);
    return [{ ...s, endMs: atMs, r1: rAt }, { ...s, startMs: atMs, r0: rAt }];
  });
}
