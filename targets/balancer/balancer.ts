/**
 * @module
 * The built-in HTTP balancer in front of N instances (round-robin or least-connections): HTTP/1.1 forwarded
 * as bytes over keep-alive pools, HTTP/2 relayed per connection. A slow client has `headTimeoutMs` per head.
 */
import { writeAll } from "../../system/write_all.ts";
import { Framing } from "../../http1/body_framing.ts";
import { BufferedConn, headFramer, MAX_HEAD_BYTES, parseHead, UpstreamPool } from "./forward/conn.ts";
import { exchange } from "./forward/exchange.ts";
import { type MessageFramer, NEED_MORE, PARSE_ERROR } from "../../http1/message_framer.ts";
import { opensWithH2Preface, plainAnswer, relayH2 } from "./forward/relay.ts";
import { type BalanceMode, STATS_PATH } from "../spec.ts";
import { closeQuietly } from "../../system/descriptors.ts";

/** Time a client has to send a whole request head (or the HTTP/2 preface) before it is closed. */
const DEFAULT_HEAD_TIMEOUT_MS = 30_000;

/** Picks an instance index: pure so the policy can be tested without sockets. */
export function pickInstance(mode: BalanceMode, inFlight: number[], next: number): number {
  if (mode === "round-robin") return next % inFlight.length;
  let best = -1;
  for (let k = 0; k < inFlight.length; k++) {
    const i = (next + k) % inFlight.length;
    if (best === -1 || inFlight[i] < inFlight[best]) best = i;
  }
  return best;
}

function createBalancer(upstreamUrls: string[], mode: BalanceMode, headTimeoutMs = DEFAULT_HEAD_TIMEOUT_MS) {
  const pools = upstreamUrls.map((u) => new UpstreamPool(u));
  const inFlight = pools.map(() => 0);
  const sent = pools.map(() => 0);
  const h2Connections = pools.map(() => 0);
  let next = 0;
  /** Runs `use` on the instance the policy picks, counted in flight meanwhile. */
  const onPicked = async <T>(use: (i: number) => Promise<T>): Promise<T> => {
    const i = pickInstance(mode, inFlight, next++);
    inFlight[i]++;
    try {
      return await use(i);
    } finally {
      inFlight[i]--;
    }
  };
  const relay = (client: BufferedConn) =>
    onPicked(async (i) => {
      h2Connections[i]++;
      if (!(await relayH2(client, pools[i].hostname, pools[i].port))) pools[i].badGateways++;
    });
  const forward = (client: BufferedConn, headEnd: number) =>
    onPicked((i) => (sent[i]++, exchange(client, headEnd, pools[i])));
  const stats = () =>
    plainAnswer(200, "OK", Object.fromEntries(sent.map((n, i) => [`instance${i + 1}`, n])), false);
  return {
    /** Requests per instance, in upstream order. */
    sent,
    /** HTTP/2 connections relayed per instance, each in flight while it lasts. */
    h2Connections,
    /** TCP connections per instance: far fewer than `sent` while keep-alive works. */
    opened: () => pools.map((p) => p.opened),
    /** 502s per instance: unreachable, or an answer refused for ambiguous framing. */
    badGateways: () => pools.map((p) => p.badGateways),
    /** Never throws. */
    serveConnection: (conn: Deno.Conn) =>
      serveClient(new BufferedConn(conn), forward, stats, relay, headTimeoutMs),
    close() {
      for (const pool of pools) pool.close();
    },
  };
}

/** Forwards the request whose head `client.head` framed, ending at `headEnd`; true: keep the client open. */
type Forward = (client: BufferedConn, headEnd: number) => Promise<boolean>;

/** Forwards requests of one client connection one at a time (or relays HTTP/2). */
async function serveClient(
  client: BufferedConn,
  forward: Forward,
  stats: () => Uint8Array,
  relay: (client: BufferedConn) => Promise<void>,
  headTimeoutMs: number,
): Promise<void> {
  const req = client.head = headFramer(true);
  // Closing the socket ends the pending read; the loop below then ends through its catch.
  const arm = () => setTimeout(() => client.close(), headTimeoutMs);
  let headTimer: ReturnType<typeof setTimeout> | undefined = arm();
  try {
    if (await opensWithH2Preface(client)) {
      clearTimeout(headTimer);
      return await relay(client);
    }
    for (;;) {
      let headEnd = parseHead(req, client.buf, client.start, client.end);
      while (headEnd === NEED_MORE) {
        if (headTimer === undefined && client.end > client.start) headTimer = arm();
        if (client.end - client.start >= MAX_HEAD_BYTES) {
          return await writeAll(client.conn, plainAnswer(431, "Request Header Fields Too Large", {}, true));
        }
        if (!(await client.fill())) return;
        headEnd = parseHead(req, client.buf, client.start, client.end);
      }
      if (headEnd === PARSE_ERROR) {
        return await writeAll(
          client.conn,
          plainAnswer(400, "Bad Request", { error: `malformed request: ${req.error}` }, true),
        );
      }
      clearTimeout(headTimer);
      headTimer = undefined;
      client.start += req.leadingBytes; // empty lines before a request line are not passed on
      if (isStatsRequest(client.buf, req)) {
        client.start = headEnd;
        await writeAll(client.conn, stats());
        if (!req.keepAlive) return;
        continue;
      }
      if (!(await forward(client, headEnd))) return;
    }
  } catch {
    /* a connection broke mid-message (or its head timed out): there is no one left to tell */
  } finally {
    clearTimeout(headTimer);
    client.close();
  }
}

/** The balancer answers its own counters at the instances' stats path instead of forwarding. */
const STATS_TARGET = new TextEncoder().encode(STATS_PATH);

/** A body-less request for exactly the stats path (a query string is allowed). */
function isStatsRequest(buf: Uint8Array, req: MessageFramer): boolean {
  const at = req.targetStart, n = STATS_TARGET.length, length = req.targetEnd - at;
  if (length < n || (length > n && buf[at + n] !== 63)) return false; // 63: "?", a query string
  if (req.framing === Framing.Chunked || req.contentLength > 0) return false;
  for (let k = 0; k < n; k++) if (buf[at + k] !== STATS_TARGET[k]) return false;
  return true;
}

/** Balances every connection on `hostname:port` (0: free) over `upstreams`; shaped like `Deno.HttpServer`. */
export function serveBalancer(
  opts: {
    hostname: string;
    port: number;
    upstreams: string[];
    mode: BalanceMode;
    /** Terminate TLS here (PEM text), offering h2 and http/1.1 by ALPN; the upstreams stay plain (h2c). */
    tls?: { cert: string; key: string };
    headTimeoutMs?: number;
  },
) {
  const balancer = createBalancer(opts.upstreams, opts.mode, opts.headTimeoutMs);
  const address = { hostname: opts.hostname, port: opts.port };
  const listener: Deno.Listener = opts.tls
    ? Deno.listenTls({ ...address, ...opts.tls, alpnProtocols: ["h2", "http/1.1"] })
    : Deno.listen(address);
  // Each client connection with its serving loop, so a shutdown can close them and wait for the loops.
  const open = new Map<Deno.Conn, Promise<void>>();
  const finished = (async () => {
    try {
      for await (const conn of listener) {
        // A TLS connection (tls:) has no setNoDelay of its own; Deno.listenTls sets none either way.
        if ("setNoDelay" in conn) (conn as Deno.TcpConn).setNoDelay(true);
        open.set(conn, balancer.serveConnection(conn).finally(() => open.delete(conn)));
      }
    } catch { /* the listener was closed */ }
  })();
  return {
    addr: listener.addr as Deno.NetAddr,
    finished,
    balancer,
    async shutdown() {
      closeQuietly(listener);
      const loops = [...open.values()];
      for (const conn of open.keys()) closeQuietly(conn);
      await Promise.all([finished, ...loops]);
      balancer.close();
    },
  };
}
