/**
 * @module
 * Arrival-rate phases on one command line: `--phases "30s@10,60s@20,30s@50->200"`.
 */
import { MAX_RATE_PER_SEC, type Phase } from "../../runner/load/models/fields.ts";
import { MAX_DURATION_WORDS } from "../../validation/duration.ts";
import { parseDurationMs } from "../duration.ts";
import { UsageError } from "../usage_error.ts";

const PHASE = /^([^@]+)@([^@]+?)(?:->([^@]+))?$/;
const RATE = /^(\d+(?:\.\d+)?|\.\d+)$/;

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
      `${flag} ${
        JSON.stringify(whole)
      }: ${why}; write DURATION@RATE or DURATION@FROM->TO, e.g. 30s@10,60s@50->200`,
    );
  const match = PHASE.exec(part);
  if (!match) throw bad(`"${part}" is not a phase`);
  let durationMs: number;
  try {
    durationMs = parseDurationMs(match[1]);
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
  if (!RATE.test(trimmed)) throw bad(`"${trimmed}" in "${part}" is not a rate (req/s >= 0)`);
  if (Number(trimmed) > MAX_RATE_PER_SEC) {
    throw bad(
      `"${trimmed}" in "${part}" is over the cap of ${MAX_RATE_PER_SEC.toLocaleString("en-US")} req/s`,
    );
  }
  return Number(trimmed);
}
