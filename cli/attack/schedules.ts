/**
 * @module
 * A load's schedule on one command line: arrival-rate phases (`--phases "30s@10,60s@50->200"`) and
 * ramping connections, k6's stages (`--stages 30s:50,1m:200,30s:0`) or Locust's spawn rate.
 */
import type { Stage } from "../../runner/load/models/ramping_connections.ts";
import {
  DEFAULT_DURATION_MS,
  MAX_RATE_PER_SEC,
  MAX_STAGE_CONNECTIONS,
  MAX_STAGES,
} from "../../runner/load/models/fields.ts";
import type { Phase } from "../../runner/config_fields.ts";
import { durationMsOf, MAX_DURATION_WORDS } from "../../validation/duration.ts";
import { DECIMAL, parseDurationMs, WHOLE } from "../flag_values.ts";
import { UsageError } from "../usage_error.ts";

const PHASE = /^([^@]+)@([^@]+?)(?:->([^@]+))?$/;

/** Parses a comma-separated phase list: `10s@5,20s@5->50` is 10 s at 5/s, then 20 s from 5/s to 50/s. */
export function parsePhases(text: string, flag = "--phases"): Phase[] {
  const phases = text.split(",").map((part) => parsePhase(part.trim(), text, flag));
  if (phases.every((p) => p.ratePerSec === 0 && !p.rampToPerSec)) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)}: every phase is a pause; give a rate > 0, e.g. 30s@10`,
    );
  }
  return phases;
}

function parsePhase(part: string, whole: string, flag: string): Phase {
  const bad = (why: string) =>
    new UsageError(
      `${flag} ${JSON.stringify(whole)}: ${why}; write DURATION@RATE or DURATION@FROM->TO, ` +
        "e.g. 30s@10,60s@50->200",
    );
  const match = PHASE.exec(part);
  if (!match) throw bad(`"${part}" is not a phase`);
  let durationMs: number;
  try {
    durationMs = parseDurationMs(match[1].trim());
  } catch {
    throw bad(`"${match[1]}" is not a duration ${MAX_DURATION_WORDS}`);
  }
  if (durationMs <= 0) throw bad(`phase "${part}" lasts 0`);
  const ratePerSec = parseRate(match[2], part, bad);
  if (match[3] === undefined) return { durationMs, ratePerSec };
  return { durationMs, ratePerSec, rampToPerSec: parseRate(match[3], part, bad) };
}

function parseRate(text: string, part: string, bad: (why: string) => UsageError): number {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) throw bad(`"${trimmed}" in "${part}" is not a rate (req/s >= 0)`);
  const cap = `the cap of ${MAX_RATE_PER_SEC.toLocaleString("en-US")} req/s`;
  if (Number(trimmed) > MAX_RATE_PER_SEC) throw bad(`"${trimmed}" in "${part}" is over ${cap}`);
  return Number(trimmed);
}

const STAGE = /^([^:]+):(.+)$/;
const SPAWN_RATE = /^(\d+(?:\.\d+)?|\.\d+)(?:\/s)?$/;

/** Parses comma-separated `DURATION:TARGET` stages: `30s:50,30s:0` ramps to 50 in 30 s, then to 0. */
export function parseStages(text: string, flag = "--stages"): Stage[] {
  const parts = text.split(",").map((p) => p.trim());
  const bad = (why: string, outOfRange = false) =>
    new UsageError(
      `${flag} ${JSON.stringify(text)}: ${why}; write DURATION:TARGET,..., e.g. 30s:50,1m:200,30s:0`,
      { outOfRange },
    );
  if (text.trim() === "") throw bad("no stage given");
  if (parts.length > MAX_STAGES) throw bad(`${parts.length} stages, at most ${MAX_STAGES}`);
  const stages = parts.map((part, i) => parseStage(part, `stage ${i + 1} ("${part}")`, bad));
  if (stages.every((s) => s.target === 0)) throw bad("no stage opens a connection; give one a target >= 1");
  return stages;
}

function parseStage(part: string, where: string, bad: (why: string, range?: boolean) => UsageError): Stage {
  const match = STAGE.exec(part);
  // A duration without its target, or a target below 0, is well formed to k6 (`outOfRange`).
  if (!match) throw bad(`${where} is not DURATION:TARGET`, durationMsOf(part) !== undefined);
  let durationMs: number;
  try {
    durationMs = parseDurationMs(match[1].trim());
  } catch {
    throw bad(`${where}: "${match[1]}" is not a duration ${MAX_DURATION_WORDS}`);
  }
  if (!(durationMs > 0)) throw bad(`${where} lasts 0`);
  const target = match[2].trim();
  if (!WHOLE.test(target)) {
    throw bad(
      `${where}: "${target}" is not a number of connections (a whole number >= 0)`,
      /^-\d+$/.test(target),
    );
  }
  if (Number(target) > MAX_STAGE_CONNECTIONS) {
    throw bad(
      `${where}: ${target} is over the cap of ${MAX_STAGE_CONNECTIONS.toLocaleString("en-US")} connections`,
    );
  }
  return { durationMs, target: Number(target) };
}

/** A spawn rate (`10`, `10/s`, `0.5`) in users a second. */
export function spawnRateOf(spawnText: string): number {
  const match = SPAWN_RATE.exec(spawnText.trim());
  const perSec = match ? Number(match[1]) : NaN;
  if (!(perSec > 0)) {
    throw new UsageError(
      `--ramp-up ${JSON.stringify(spawnText)}: not a spawn rate; write connections a second, e.g. 10/s`,
    );
  }
  return perSec;
}

/**
 * Locust's spawning as stages within `durationMs`: floor(r) users (1 below 1/s) every floor(r)/r s from 0,
 * each batch rising within 1 ms; with more batches than the stages hold, linear at r after the first.
 */
export function spawnStages(perSec: number, users: number, durationMs: number): Stage[] {
  const batch = Math.max(1, Math.floor(perSec)), everyMs = (batch / perSec) * 1000;
  const batches = Math.min(Math.ceil(users / batch), Math.ceil(durationMs / everyMs));
  const stages: Stage[] = [];
  const linear = 2 * batches + 1 > MAX_STAGES;
  if (linear) {
    const rampMs = Math.min(durationMs - 1, Math.ceil(((users - batch) / perSec) * 1000));
    const top = Math.min(users, batch + Math.floor((rampMs / 1000) * perSec));
    stages.push({ durationMs: 1, target: batch }, { durationMs: rampMs, target: top });
  }
  for (let k = 0; !linear && k < batches; k++) {
    const target = Math.min(users, (k + 1) * batch), startMs = Math.round(k * everyMs);
    const endMs = k + 1 === batches ? durationMs : Math.round((k + 1) * everyMs);
    stages.push({ durationMs: 1, target });
    if (endMs - startMs > 1) stages.push({ durationMs: endMs - startMs - 1, target });
  }
  const usedMs = stages.reduce((t, s) => t + s.durationMs, 0);
  if (usedMs < durationMs) stages.push({ durationMs: durationMs - usedMs, target: stages.at(-1)!.target });
  return stages;
}

/** A spawn rate as stages: `connections` reached at `spawnText` from 0, held until `durationMs`. */
export function rampUpStages(
  spawnText: string,
  connections: number,
  durationMs = DEFAULT_DURATION_MS,
): Stage[] {
  const perSec = spawnRateOf(spawnText);
  const cap = MAX_STAGE_CONNECTIONS.toLocaleString("en-US");
  if (connections > MAX_STAGE_CONNECTIONS) {
    throw new UsageError(`--ramp-up to -c ${connections}: over the cap of ${cap} connections`);
  }
  const rampMs = Math.ceil((connections / perSec) * 1000);
  if (rampMs >= durationMs) {
    throw new UsageError(
      `--ramp-up ${spawnText} to -c ${connections} takes ${rampMs / 1000}s, not shorter than the duration ` +
        `(${durationMs / 1000}s): spawn faster, or give a longer -d`,
    );
  }
  const hold = { durationMs: durationMs - rampMs, target: connections };
  return [{ durationMs: rampMs, target: connections }, hold];
}
