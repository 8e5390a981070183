/**
 * @module
 * How many sockets a load may hold at once, against the process's open-file limit, in one wording for
 * every command: `socketsOf` says how many sockets a load can hold at once (its connections, or the cap
 * of an open model), `socketProblem` the one-line error with the limit, what was asked and how to raise
 * it, so `attack`, `serve` and `run` cannot drift apart. Pure: the caller reads the limit
 * (system/open_file_limit.ts) and passes it in.
 */

import type { LoadModel } from "../results/mod.ts";
import { pacingOf } from "./load/models/mod.ts";

/** Sockets kept free for stdio, the log file, worker channels and the runtime itself. */
export const FD_HEADROOM = 50;

/** The parts of a validated attack config that decide how many sockets it may hold at once. */
export interface SocketFields {
  model: LoadModel;
  connections?: number;
  maxConnections?: number;
  ratePerSec?: number;
  /** Ramping connections: the most any stage asks for. */
  stages?: ReadonlyArray<{ target: number }>;
}

/**
 * The most sockets a load holds at once: `maxConnections` for open pacing (rate, or count with a rate),
 * else its fixed `connections`. `open` says which, so messages name the right knob.
 */
export function socketsOf(config: SocketFields): { open: boolean; sockets: number } {
  const open = pacingOf(config) === "open";
  const peak = config.stages ? Math.max(0, ...config.stages.map((s) => s.target)) : undefined;
  return { open, sockets: (open ? config.maxConnections : config.connections ?? peak) ?? 0 };
}

/** The most sockets a load may ask for under `limit` (never below 1). */
export function maxSocketsUnder(limit: number): number {
  return Math.max(1, limit - FD_HEADROOM);
}

/**
 * `undefined` when `sockets` fit under `limit` (or the limit is unknown); else the problem in words:
 * `needs 5000 sockets but the open-file limit is 256 (50 kept for the runtime); raise it (ulimit -n
 * 8192) or use at most 206`. The caller puts the flag or field in front, and its own name after "at most".
 */
export function socketProblem(sockets: number, limit: number | null, fix: string): string | undefined {
  if (limit === null || !Number.isFinite(limit) || sockets <= limit - FD_HEADROOM) return undefined;
  return `needs ${sockets} sockets but the open-file limit is ${limit} (${FD_HEADROOM} kept for the ` +
    `runtime); raise it (ulimit -n ${nextPowerOfTwo(sockets + FD_HEADROOM)}) or use at most ` +
    `${fix} ${maxSocketsUnder(limit)}`;
}

function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}
