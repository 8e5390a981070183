/**
 * @module
 * Artillery `config.phases` -> the imported script's `rate` load.
 */
import { durationMsOf } from "../../validation/duration.ts";
import {
  type Collector,
  isRecord,
  join,
  nonNegative,
  rejectUnknownKeys,
  secondsToDuration,
} from "./common.ts";
import { uniqueName } from "./flow.ts";
import { listOrigin, type Origin, tagOrigin } from "./paths.ts";

const PHASE_KEYS = ["name", "duration", "arrivalRate", "rampTo", "arrivalCount", "pause", "maxVusers"];

/** `config.phases` -> the `artillery` load (rate model, per-arrival connections, named phases). */
export function convertPhases(phases: unknown, out: Collector): Record<string, unknown> {
  const load: Record<string, unknown> = { model: "rate", connection: "per-arrival" };
  if (!Array.isArray(phases) || phases.length === 0) {
    out.issues.push({
      path: "config.phases",
      message: "missing: at least one phase such as {duration: 60, arrivalRate: 10}",
    });
    return load;
  }
  const used = new Set<string>();
  const caps: Array<{ path: string; value: number }> = [];
  load.phases = phases.map((phase, i) => {
    const path = join("config.phases", i);
    if (!isRecord(phase)) {
      out.issues.push({ path, message: `expected a phase such as {duration: 60, arrivalRate: 10}` });
      return undefined;
    }
    rejectUnknownKeys(phase, path, PHASE_KEYS, out);
    if (phase.maxVusers !== undefined) {
      const cap = phase.maxVusers;
      if (Number.isInteger(cap) && (cap as number) >= 1) {
        caps.push({ path: join(path, "maxVusers"), value: cap as number });
      } else {out.issues.push({
          path: join(path, "maxVusers"),
          message: `expected a whole number >= 1, found ${cap}`,
        });}
    }
    const name = uniqueName(typeof phase.name === "string" ? phase.name : `phase ${i}`, used);
    return tagOrigin(out.origins, { name, ...phaseRate(phase, path, out) }, phaseOrigin(phase, path));
  });
  tagOrigin(
    out.origins,
    load.phases,
    listOrigin("config.phases", phases.map((_, i) => join("config.phases", i))),
  );
  const maxConnections = connectionCap(caps, phases.length, out);
  if (maxConnections !== undefined) load.maxConnections = maxConnections;
  const keys = {
    timeout: "config.http.timeout",
    ...(caps.length > 0 ? { maxConnections: caps[0].path } : {}),
  };
  return tagOrigin(out.origins, load, { at: "config.phases", keys });
}

/** Where a phase's keys came from: its duration and rate from `pause`, `arrivalRate` or `arrivalCount`. */
function phaseOrigin(phase: Record<string, unknown>, path: string): Origin {
  const from = phase.pause !== undefined
    ? "pause"
    : phase.arrivalCount !== undefined
    ? "arrivalCount"
    : "arrivalRate";
  const keys: Record<string, string> = {
    duration: join(path, phase.pause !== undefined ? "pause" : "duration"),
    rate: join(path, from),
    rampTo: join(path, "rampTo"),
  };
  if (typeof phase.name === "string") keys.name = join(path, "name");
  return { at: path, keys };
}

/** Duration and rate of one phase: `pause`, `arrivalRate` (+ `rampTo`) or `arrivalCount`. */
function phaseRate(phase: Record<string, unknown>, path: string, out: Collector): Record<string, unknown> {
  if (phase.pause !== undefined) {
    for (const key of ["duration", "arrivalRate", "rampTo", "arrivalCount"]) {
      if (phase[key] !== undefined) {
        out.issues.push({ path: join(path, key), message: "a pause phase has only pause" });
      }
    }
    return { duration: secondsToDuration(phase.pause, join(path, "pause"), out), rate: 0 };
  }
  if (phase.duration === undefined) {
    out.issues.push({ path: join(path, "duration"), message: "missing: the phase length in seconds" });
    return {};
  }
  const duration = secondsToDuration(phase.duration, join(path, "duration"), out);
  if (duration !== undefined && durationMsOf(duration) === 0) {
    // Named here, at the script's own key; the engine would name the converted load's phase instead.
    out.issues.push({ path: join(path, "duration"), message: "must be > 0 seconds, e.g. duration: 60" });
    return {};
  }
  if (phase.arrivalCount !== undefined) {
    if (phase.arrivalRate !== undefined || phase.rampTo !== undefined) {
      out.issues.push({
        path: join(path, "arrivalCount"),
        message: "give arrivalCount or arrivalRate, not both",
      });
    }
    const count = nonNegative(phase.arrivalCount, join(path, "arrivalCount"), out);
    const ms = duration === undefined ? 0 : durationMsOf(duration) ?? 0;
    if (count === undefined || ms === 0) return { duration };
    return { duration, rate: count / (ms / 1000) };
  }
  if (phase.arrivalRate === undefined) {
    out.issues.push({
      path: join(path, "arrivalRate"),
      message: "missing: arrivalRate, arrivalCount or pause",
    });
    return { duration };
  }
  const rate = nonNegative(phase.arrivalRate, join(path, "arrivalRate"), out);
  const rampTo = phase.rampTo === undefined
    ? undefined
    : nonNegative(phase.rampTo, join(path, "rampTo"), out);
  return rampTo === undefined ? { duration, rate } : { duration, rate, rampTo };
}

/** Artillery caps virtual users per phase, loadlab connections per load: one connection per arrival. */
function connectionCap(caps: Array<{ path: string; value: number }>, phaseCount: number, out: Collector) {
  if (caps.length === 0) return undefined;
  const first = caps[0];
  for (const cap of caps.slice(1)) {
    if (cap.value !== first.value) {
      out.issues.push({
        path: cap.path,
        message: `loadlab caps connections for the whole load: every phase needs the same maxVusers ` +
          `(${first.path} is ${first.value}, this is ${cap.value})`,
      });
    }
  }
  if (caps.length < phaseCount) {
    out.warnings.push(`maxVusers ${first.value} (${first.path}) applies to every phase in loadlab`);
  }
  return first.value;
}
