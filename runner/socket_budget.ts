/**
 * @module
 * How many sockets a load may hold at once, against the process's limits, in one wording for every
 * command: `socketsOf` says how many sockets a load can hold at once (its connections, the cap of an open
 * model, or its largest stage, named), `socketProblem` the one-line error with the open-file limit, what
 * was asked and how to raise it, and `portProblem` the same for the local ports one source address has
 * for one destination (the kernel's `ip_local_port_range`, about 28,000, half of them quickly), so
 * `attack`, `serve` and `run`
 * cannot drift apart and a crowd the limits cannot hold is refused before the load instead of opening
 * fewer. Pure: the caller reads the limits (system/open_file_limit.ts, system/local_ports.ts) and passes
 * them in.
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
 * The most sockets a load holds at once: `maxConnections` for open pacing (rate, or count with a rate),
 * else its fixed `connections`, or for ramping connections its largest stage (`stage`, its index). `open`
 * and `stage` say which, so messages name the right knob. A segment (`--segment i/N`) holds its share of
 * the load's (`whole`) sockets.
 */
export function socketsOf(
  config: SocketFields,
): { open: boolean; sockets: number; whole: number; stage?: number } {
  const open = pacingOf(config) === "open";
  // A segment's share is at most the whole divided by the segments, rounded up (shares are as even as can be).
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
 * `undefined` when `sockets` fit under `limit` (or the limit is unknown); else the problem in words:
 * `needs 5000 sockets but the open-file limit is 256 (50 kept for the runtime); raise it (ulimit -n
 * 8192) or use at most 206`. The caller puts the flag or field in front, and its own name after "at most";
 * a load split in `segments` may use that many times what one holds.
 */
export function socketProblem(
  sockets: number,
  limit: number | null,
  fix: string,
  segments = 1,
): string | undefined {
  if (limit === null || !Number.isFinite(limit) || sockets <= limit - FD_HEADROOM) return undefined;
  return `needs ${sockets} sockets but the open-file limit is ${limit} (${FD_HEADROOM} kept for the ` +
    `runtime); raise it (ulimit -n ${nextPowerOfTwo(sockets + FD_HEADROOM)}) or use at most ` +
    `${fix} ${maxSocketsUnder(limit) * segments}`;
}

function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}

/**
 * Of a source address's `portsPerSource` local ports, those a crowd to one destination can open quickly:
 * since Linux 4.6 `connect` takes ports of one parity first (the other half is left to `bind`), and once
 * that half is taken every further connect searches each port in use to that destination. Measured here
 * (Linux 6.18, nginx on loopback): past 14,030 connections from 127.0.0.1 connects came 255 a second, the
 * worker's turns a second long, so a crowd of 15,000 sent nothing in a 5 s run; from two addresses all
 * 15,000 were open in 1.75 s.
 */
export function quickPortsOf(portsPerSource: number): number {
  return Math.floor(portsPerSource / 2);
}

/**
 * `undefined` when `sockets` connections to one destination fit in the ports `sources` source addresses
 * open quickly (`quickPortsOf` their `portsPerSource` each, null: unknown); else the problem in words:
 * `needs 30000 connections to one address but 1 source address opens 14116 quickly (half its 28232 local
 * ports, net.ipv4.ip_local_port_range: past that half the kernel searches every port in use on each
 * connect, too slowly to open the crowd); spread them over 3 source addresses (--source-addresses
 * 127.0.0.1-127.0.0.3 on loopback, or the interface's own), or over machines (--segment)`.
 */
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
