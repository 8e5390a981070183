/**
 * @module
 * The one place a run's transport is chosen, once and recorded, so the event loop never branches on it.
 * `auto` is epoll wherever it can work (docs/PERFORMANCE.md), else deno with the reason kept.
 */
import { type CallbackConnect, dialTarget, tcpTransport, type Transport } from "./transport.ts";
import { type TlsSessionInfo, tlsTransport } from "../tls/deno_tls.ts";
import { connectToOf, serverNameOf } from "../tls/material.ts";
import type { TlsOptions } from "../tls/options.ts";
import { errorMessage } from "../exchange_errors.ts";
import { EpollSys, epollUnavailableReason } from "./epoll/ffi.ts";
import { EpollLoop } from "./epoll/transport.ts";
import { resolveOnce } from "./host_resolver.ts";
import { OpenSslClient } from "../tls/openssl_client.ts";
import { uringUnavailableReason } from "./uring/ring.ts";
import { UringLoop } from "./uring/transport.ts";
import { opensslUnavailableReason } from "../tls/openssl_ffi.ts";
import { AF_INET, type SockAddr, sockAddrOf } from "./sock_addr.ts";
import { LoopLagProbe, type ReadyWaitSum } from "./ready_wait.ts";

const TRANSPORT_CHOICES = ["auto", "epoll", "deno", "io_uring"] as const;
type TransportRequest = typeof TRANSPORT_CHOICES[number];
export type TransportKind = "epoll" | "deno" | "io_uring";

export interface ChosenTransport {
  kind: TransportKind;
  transport: Transport;
  /** The epoll transport's connect by callback (transport.ts `CallbackConnect`); absent on the others. */
  connectBy?: CallbackConnect;
  /** Why the transport asked for (or `auto`'s `epoll`) was not used and `kind` was; null otherwise. */
  fallbackReason: string | null;
  /** https: what the first handshake negotiated (null before one completed, or for http:). */
  tlsInfo(): TlsSessionInfo | null;
  close(): void;
  /** Closed models: how long ready responses waited for the worker, by each transport's probe; null: none. */
  takeReadyWait?: () => ReadyWaitSum | null;
}

/** Why epoll cannot serve `url` here, or null when it can (https: needs libssl 3 as well). */
export function epollBlocker(url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} target`;
  const libc = epollUnavailableReason();
  if (libc !== null || url.protocol === "http:") return libc;
  return opensslUnavailableReason();
}

interface TransportOptions {
  /** A closed model in its own isolate: the epoll pump may block up to `CLOSED_MODEL_BLOCK_MS` when idle. */
  closedModel?: boolean;
  /** A WebSocket message run: `auto` takes io_uring where it can serve it (docs/WEBSOCKET.md#speed). */
  preferUring?: boolean;
  /** https: the run's TLS options; their files are read here (checked before the run by the caller). */
  tls?: TlsOptions;
  /** https: the ALPN protocols offered (default `http/1.1`; HTTP/2 runs offer `h2`). */
  alpn?: readonly string[];
  /** Source addresses to bind connections to in turn: epoll only, so the run is on epoll or refused. */
  sourceAddresses?: readonly string[];
}

/** How long a closed model's epoll pump keeps the thread per turn (the watchdog's resolution is 50 ms). */
export const CLOSED_MODEL_BLOCK_MS = 5;

export function chooseTransport(
  url: URL,
  requested: TransportRequest,
  options: TransportOptions = {},
): ChosenTransport {
  if (options.sourceAddresses?.length) return boundTransport(url, requested, options);
  if (requested === "deno") return denoTransport(url, options, null);
  if (requested === "io_uring") {
    const uring = chooseUring(url, options);
    if (typeof uring !== "string") return uring;
    const epoll = chooseTransport(url, "epoll", options);
    return { ...epoll, fallbackReason: epoll.fallbackReason ?? uring };
  }
  if (requested === "auto" && options.preferUring === true) {
    // Where io_uring cannot serve the run, auto is epoll, with no fallback to report.
    const uring = chooseUring(url, options);
    if (typeof uring !== "string") return uring;
  }
  const blocker = epollBlocker(url);
  if (blocker !== null) return denoTransport(url, options, blocker);
  return chooseEpoll(url, options);
}

/** Epoll bound to the source addresses whatever was asked, else why not (a crowd never uses fewer). */
function boundTransport(url: URL, requested: TransportRequest, options: TransportOptions): ChosenTransport {
  const why = requested === "deno" ? "--transport deno cannot bind a source address" : epollBlocker(url);
  if (why !== null) {
    throw new Error(
      `--source-addresses needs the epoll transport (Linux), which cannot serve this run: ${why}`,
    );
  }
  const chosen = chooseEpoll(url, options);
  if (chosen.kind !== "epoll") {
    chosen.close();
    throw new Error(`--source-addresses needs the epoll transport: ${chosen.fallbackReason}`);
  }
  const asked = requested === "io_uring" ? "io_uring cannot bind source addresses yet: epoll does" : null;
  return { ...chosen, fallbackReason: asked };
}

/** Deno's own sockets (https: through Deno.startTls), with why the run is on them when it was not asked. */
function denoTransport(url: URL, options: TransportOptions, fallbackReason: string | null): ChosenTransport {
  const probe = options.closedModel ? new LoopLagProbe() : null;
  const probed = probe === null ? {} : { takeReadyWait: () => probe.take(), close: () => probe.close() };
  const tls = url.protocol !== "https:"
    ? null
    : tlsTransport(serverNameOf(url, options.tls), options.tls, options.alpn);
  const transport = tls?.transport ?? tcpTransport;
  return {
    kind: "deno",
    transport,
    fallbackReason,
    tlsInfo: tls?.info ?? (() => null),
    close() {},
    ...probed,
  };
}

/** The epoll loop (https: with OpenSSL), or Deno's sockets with why when it cannot be set up. */
function chooseEpoll(url: URL, options: TransportOptions): ChosenTransport {
  const { hostname, port } = dialTarget(url, connectToOf(options.tls));
  let loop: EpollLoop;
  let tls: OpenSslClient | undefined;
  try {
    const sys = new EpollSys();
    const blockMs = options.closedModel ? CLOSED_MODEL_BLOCK_MS : 0;
    const addr = resolveOnce(hostname, port);
    if (url.protocol === "https:") {
      tls = new OpenSslClient(serverNameOf(url, options.tls), options.tls, () => sys.lastErrno());
      if (options.alpn !== undefined) tls.setAlpn(options.alpn);
    }
    const sources = (options.sourceAddresses ?? []).map((ip) => sourceAddrOf(ip, addr));
    loop = new EpollLoop(addr, sys, { blockMs, tls, sources });
  } catch (err) {
    tls?.close();
    return denoTransport(url, options, errorMessage(err));
  }
  const insecure = options.tls?.insecure ?? false;
  const resume = options.tls?.resume ?? true;
  const tlsInfo = (): TlsSessionInfo | null =>
    loop.tlsInfo === null || tls === undefined ? null : {
      client: "openssl",
      ...loop.tlsInfo,
      insecure,
      resume,
      handshakes: tls.handshakes,
      resumed: tls.resumed,
    };
  return { ...loopChosen("epoll", loop), connectBy: (waiter) => loop.connectTo(waiter), tlsInfo };
}

/** A transport on our own event loop (epoll, io_uring): it connects, closes and probes ready waits. */
function loopChosen(kind: TransportKind, loop: EpollLoop | UringLoop): ChosenTransport {
  return {
    kind,
    transport: (_hostname, _port, signal) => loop.connect(signal),
    fallbackReason: null,
    tlsInfo: () => null,
    close: () => loop.close(),
    takeReadyWait: () => loop.takeReadyWait(),
  };
}

/** Source address `ip` (port 0) for sockets dialling `target`: the same family, or an error saying so. */
function sourceAddrOf(ip: string, target: SockAddr): SockAddr {
  const source = sockAddrOf(ip, 0);
  if (source.family !== target.family) {
    const want = target.family === AF_INET ? "IPv4" : "IPv6";
    throw new Error(`--source-addresses: ${ip} cannot dial ${target.text}: give ${want} source addresses`);
  }
  return source;
}

/** Why io_uring cannot serve `url`, or null: plain TCP and closed models only, and a ring we can make. */
export function uringBlocker(url: URL, options: TransportOptions = {}): string | null {
  if (url.protocol !== "http:") return `io_uring serves plain TCP only (${url.protocol} stays on epoll)`;
  if (options.closedModel !== true) {
    return "io_uring serves closed models only (an open model stays on epoll)";
  }
  return epollUnavailableReason() ?? uringUnavailableReason();
}

function chooseUring(url: URL, options: TransportOptions): ChosenTransport | string {
  const blocker = uringBlocker(url, options);
  if (blocker !== null) return blocker;
  const { hostname, port } = dialTarget(url, connectToOf(options.tls));
  let loop: UringLoop;
  try {
    const sys = new EpollSys();
    loop = new UringLoop(resolveOnce(hostname, port), sys, CLOSED_MODEL_BLOCK_MS);
  } catch (err) {
    return errorMessage(err);
  }
  return loopChosen("io_uring", loop);
}
