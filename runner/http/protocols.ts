/**
 * @module
 * `PROTOCOLS` maps each protocol a run speaks to its `LoadConnection` factory, loaded only when a run speaks
 * it. `auto` asks an https: server's ALPN once per worker before t0; on http: it is HTTP/1.1.
 */
import type { ChosenTransport } from "./transport/choice.ts";
import type { AttackConfig } from "../config.ts";
import type { ConnectionShared, LoadConnection } from "./load_connection.ts";
import { Connection } from "./h1/connection.ts";
import type { WsRun } from "./ws/run.ts";
import type { GrpcRun } from "./grpc/answer.ts";
import type { StreamAnswer } from "./stream_answer.ts";
import { serverNameOf } from "./tls/material.ts";
import type { TlsSessionInfo } from "./tls/deno_tls.ts";
import { closeQuietly } from "../../system/descriptors.ts";

type ProtocolRequest = "http1" | "h2" | "h2c" | "h3" | "auto";
export type ProtocolUsed = "http1" | "h2" | "h2c" | "h3";
/** A row of the protocol table: the HTTP version spoken, WebSocket, or gRPC (over h2 or h2c). */
type ProtocolRow = ProtocolUsed | "ws" | "grpc";

/** The table's row for a run at `url` that spoke `used`: ws: URLs are WebSocket's, `grpc` runs gRPC's. */
export function protocolRowOf(url: URL, used: ProtocolUsed, grpc = false): ProtocolRow {
  return url.protocol === "ws:" || url.protocol === "wss:" ? "ws" : grpc ? "grpc" : used;
}

/** What to offer by ALPN (undefined: the transport's default, `http/1.1`) and what is settled already. */
export function alpnOf(url: URL, requested: ProtocolRequest): {
  alpn: readonly string[] | undefined;
  settled: ProtocolUsed | null;
} {
  const https = url.protocol === "https:";
  if (requested === "http1") return { alpn: undefined, settled: "http1" };
  if (requested === "h3") return { alpn: undefined, settled: "h3" };
  if (requested === "h2c" || (requested === "h2" && !https)) return { alpn: undefined, settled: "h2c" };
  if (requested === "h2") return { alpn: ["h2"], settled: "h2" };
  return https ? { alpn: ["h2", "http/1.1"], settled: null } : { alpn: undefined, settled: "http1" };
}

/** `auto` on https:: one connection (no request) learns the server's ALPN choice: `h2` or `http1`. */
export async function probeProtocol(
  chosen: ChosenTransport,
  hostname: string,
  port: number,
  timeoutMs: number,
): Promise<ProtocolUsed> {
  try {
    const conn = await chosen.transport(hostname, port, AbortSignal.timeout(timeoutMs));
    closeQuietly(conn);
  } catch {
    return "http1";
  }
  return chosen.tlsInfo()?.alpn === "h2" ? "h2" : "http1";
}

interface ProtocolSetup {
  readonly shared: ConnectionShared;
  readonly url: URL;
  /** The run's requests, pipelining, streams, h2 window, gRPC answers (grpc/answer.ts) and TLS options. */
  readonly config: Pick<
    AttackConfig,
    "requestMix" | "data" | "pipelining" | "streams" | "h2WindowBytes" | "grpc" | "tls"
  >;
  readonly endpoints?: readonly number[];
  /** HTTP/2 `concurrency`: stream slots dealt over this many connections in turn; 0 fills each first. */
  readonly spread?: number;
  readonly idBase: number;
  /** WebSocket: the worker's messages, match rule and counts (ws/run.ts); the `ws` row needs it. */
  readonly ws?: WsRun;
}

interface ConnectionFactory {
  /** Load connections that share one connection to the target (HTTP/2 streams; 1 otherwise). */
  readonly perConnection: number;
  /** Flow steps go as HTTP/2 requests (their HEADERS frames encoded too), not HTTP/1.1 ones. */
  readonly h2Steps: boolean;
  next(id: number): LoadConnection;
  /** Most streams open at once on one connection so far (results), 0 for a protocol without streams. */
  maxOpenStreams(): number;
  /** The run's TLS session, where the protocol's connections do their own TLS (h3), not the transport. */
  tlsInfo?(): TlsSessionInfo | null;
}

function oneEach(next: (id: number) => LoadConnection): ConnectionFactory {
  return { perConnection: 1, h2Steps: false, next, maxOpenStreams: () => 0 };
}

/** HTTP/2: each load connection is one stream slot, `streams` to a connection (per arrival: one). */
async function h2Connections(setup: ProtocolSetup, answer?: () => StreamAnswer): Promise<ConnectionFactory> {
  const [{ H2Slot }, { H2Connection }, { encodeH2Mix }] = await Promise.all([
    import("./h2/slot.ts"),
    import("./h2/connection.ts"),
    import("./h2/request.ts"),
  ]);
  const { config } = setup;
  const run = {
    requests: encodeH2Mix(setup.url, config.requestMix, config.data?.columns, setup.endpoints),
    windowBytes: config.h2WindowBytes,
    answer,
    streamIntervalMs: config.grpc?.streamIntervalMs ?? 0,
  };
  return new StreamSlots(
    setup,
    true,
    (id) => new H2Connection(id, setup.shared, run),
    (id, session) => new H2Slot(id, session, run),
  );
}

/** The run's settings for `row` (`setup.ws`, the config's `grpc`), which that row cannot go without. */
function settingsOf<T>(run: T | undefined, row: "ws" | "grpc"): T {
  if (run === undefined) throw new TypeError(`the ${row} protocol row needs the run's ${row} settings`);
  return run;
}

/** WebSocket: one `WsConnection` per load connection, one message in flight on it (ws/connection.ts). */
async function wsConnections(setup: ProtocolSetup): Promise<ConnectionFactory> {
  const run = settingsOf(setup.ws, "ws");
  const { WsConnection } = await import("./ws/connection.ts");
  return oneEach((id) => new WsConnection(id, setup.shared, run));
}

/** gRPC: HTTP/2 stream slots whose every answer a `GrpcAnswer` judges (status, messages, receive cap). */
async function grpcConnections(setup: ProtocolSetup): Promise<ConnectionFactory> {
  const run: GrpcRun = settingsOf(setup.config.grpc, "grpc");
  const { GrpcAnswer } = await import("./grpc/answer.ts");
  return await h2Connections(setup, () => new GrpcAnswer(run));
}

/** HTTP/3 over Deno's QUIC: each load connection is a request stream slot, `streams` to a connection. */
async function h3Connections(setup: ProtocolSetup): Promise<ConnectionFactory> {
  const [{ H3Connection, H3_TLS }, { H3Slot }, { encodeH3Mix }] = await Promise.all([
    import("./h3/connection.ts"),
    import("./h3/slot.ts"),
    import("./h3/request.ts"),
  ]);
  const { tls } = setup.config;
  const caFile = tls?.caFile;
  const run = {
    requests: encodeH3Mix(setup.url, setup.config.requestMix, setup.endpoints),
    serverName: serverNameOf(setup.url, tls),
    caCerts: caFile === undefined ? undefined : Deno.readTextFile(caFile).then((pem) => [pem]),
    tls: { ...H3_TLS, insecure: false, resume: tls?.resume ?? true, handshakes: 0, resumed: 0 },
  };
  return new StreamSlots(
    setup,
    false,
    (id) => new H3Connection(id, setup.shared, run),
    (id, session) => new H3Slot(id, session),
    () => run.tls.handshakes === 0 ? null : run.tls,
  );
}

export const PROTOCOLS: Readonly<
  Record<ProtocolRow, (setup: ProtocolSetup) => ConnectionFactory | Promise<ConnectionFactory>>
> = {
  http1: (setup) => oneEach((id) => new Connection(id, setup.shared, setup.config.pipelining)),
  h2: h2Connections,
  h2c: h2Connections,
  h3: h3Connections,
  ws: wsConnections,
  grpc: grpcConnections,
};

/** A connection that carries slots: how many streams it had open at once, and its GOAWAY partner's. */
interface SlotHost {
  readonly maxOpenStreams: number;
  readonly partner?: { readonly maxOpenStreams: number } | null;
}

/** How h2 and h3 group load connections: each a stream slot, `streams` of them to a connection. */
class StreamSlots<C extends SlotHost> implements ConnectionFactory {
  #session: C | null = null;
  #inSession = 0;
  #sessions = 0;
  readonly sessions: C[] = [];
  readonly perConnection: number;

  /** `open` makes the connection of id `idBase + k`; `slotOn` makes slot `id` on a connection. */
  constructor(
    readonly setup: Pick<ProtocolSetup, "config" | "idBase" | "spread">,
    readonly h2Steps: boolean,
    readonly open: (id: number) => C,
    readonly slotOn: (id: number, session: C) => LoadConnection,
    readonly tlsInfo?: () => TlsSessionInfo | null,
  ) {
    this.perConnection = setup.config.streams;
  }

  /** The next slot: on the current connection below `streams`, else a new one (`spread`: round robin). */
  next(id: number): LoadConnection {
    const { config: { streams }, idBase, spread = 0 } = this.setup;
    if (spread > 0) {
      const k = this.#inSession++ % spread;
      const session = this.sessions[k] ??= this.open(idBase + this.#sessions++);
      return this.slotOn(id, session);
    }
    if (this.#session === null || this.#inSession === streams) {
      this.#session = this.open(idBase + this.#sessions++);
      this.sessions.push(this.#session);
      this.#inSession = 0;
    }
    this.#inSession++;
    return this.slotOn(id, this.#session);
  }

  maxOpenStreams(): number {
    let most = 0;
    for (const s of this.sessions) most = Math.max(most, s.maxOpenStreams, s.partner?.maxOpenStreams ?? 0);
    return most;
  }
}
