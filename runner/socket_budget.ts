/**
 * @module
 * How many sockets a load may hold, refused before the load in one wording for `attack`, `serve` and `run`.
 */

import type { LoadModel } from "../results/mod.ts";
import { pacingOf } from "./load/models/mod.ts";

/** Sockets kept free for stdio, the log file, worker channels and the runtime itself. */
export const FD_HEADROOM = 50;

/** The parts of a validated attack config that decide how many sockets it may hold at once. */
interface SocketFields {
  model: LoadModel;
  connections?: number;
  maxConnections?: number;
  ratePerSec?: number;
  /** Ramping connections: the most any stage asks for. */
  stages?: ReadonlyArray<{ target: number }>;
  /** One segment of a load split over machines (`--segment i/N`): it holds its share of the sockets. */
  segment?: { count: number };
}

/**
 * The most sockets a load holds at once: open pacing's `maxConnections`, else `connections`, or ramping's
 * largest stage (`stage`); `open` and `stage` name the knob. A segment holds its share of `whole`.
 */
export function socketsOf(config: SocketFields) {
  const open = pacingOf(config) === "open";
  const share = (whole: number) => config.segment ? Math.ceil(whole / config.segment.count) : whole;
  if (!open && config.connections === undefined && config.stages && config.stages.length > 0) {
    // The first stage asking for the most: the one a message names.
    const targets = config.stages.map((s) => s.target);
    const whole = Math.max(...targets);
    return { open, sockets: share(whole), whole, stage: targets.indexOf(whole) };
  }
  const whole = (open ? config.maxConnections : config.connections) ?? 0;
  return { open, sockets: share(whole), whole };
}

/** The most sockets a load may ask for under `limit` (never below 1). */
export function maxSocketsUnder(limit: number): number {
  return Math.max(1, limit - FD_HEADROOM);
}

/**
 * `undefined` when `sockets` fit under `limit` (or it is unknown); else the problem in words, naming the
 * open-file limit, how to raise it and what fits. A load split in `segments` may use that many times more.
 */
export function socketProblem(
  sockets: number,
  limit: number | null,
  fix: string,
  segments = 1,
): string | undefined {
  if (limit === null || !Number.isFinite(limit) || sockets <= limit - FD_HEADROOM) return undefined;
  return `needs ${sockets} sockets but the open-file limit is ${limit} (${FD_HEADROOM} kept for the ` +
    `runtime); raise it (ulimit -n ${2 ** Math.ceil(Math.log2(sockets + FD_HEADROOM))}) or use at most ` +
    `${fix} ${maxSocketsUnder(limit) * segments}`;
}

/**
 * Of a source's local ports, those a crowd to one destination opens quickly: Linux takes one parity first,
 * then searches every port in use per connect (255 connects/s past 14,030 from 127.0.0.1).
 */
export function quickPortsOf(portsPerSource: number): number {
  return Math.floor(portsPerSource / 2);
}

/** Undefined when `sockets` to one destination fit the ports `sources` open quickly; else the problem. */
export function portProblem(
  sockets: number,
  sources: number,
  portsPerSource: number | null,
): string | undefined {
  if (portsPerSource === null || portsPerSource <= 1) return undefined;
  const quick = quickPortsOf(portsPerSource);
  if (sockets <= sources * quick) return undefined;
  const needed = Math.ceil(sockets / quick);
  const have = `${sources} source address${sources === 1 ? " opens" : "es open"}`;
  const spread = needed <= 254
    ? `spread them over ${needed} source addresses (--source-addresses 127.0.0.1-127.0.0.${needed} on ` +
      "loopback, or the interface's own), or over machines (--segment)"
    : "spread them over machines (--segment)";
  return `needs ${sockets} connections to one address but ${have} ${quick} quickly each (half of ` +
    `${portsPerSource} local ports, net.ipv4.ip_local_port_range: past that half the kernel searches ` +
    `every port in use on each connect, too slowly to open the crowd); ${spread}`;
}
