/**
 * @module
 * Fixtures for the balancer's tests (not used by loadlab itself): upstreams that count the TCP
 * connections they accept (to show keep-alive reuse), an upstream scripted byte by byte (to send the
 * framings a Deno.serve app never sends: a HEAD answer with a length, 304 with a length, a body until
 * close, Connection: close), and a raw client on one connection that reads answers with its own small
 * parser, independent of the balancer's.
 */

export interface CountingServer {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** A TCP server on a free port that counts connections and hands each to `handle`. */
export function countingServer(handle: (conn: Deno.Conn) => Promise<void>): CountingServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Map<Deno.Conn, Promise<void>>();
  let accepted = 0;
  const loop = (async () => {
    try {
      for await (const conn of listener) {
        accepted++;
        open.set(conn, handle(conn).catch(() => {}).finally(() => (closeQuietly(conn), open.delete(conn))));
      }
    } catch { /* closed */ }
  })();
  const port = listener.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accepted: () => accepted,
    async close() {
      closeQuietly(listener);
      const handlers = [...open.values()];
      for (const conn of open.keys()) closeQuietly(conn);
      await Promise.all([loop, ...handlers]);
    },
  };
}

function closeQuietly(c: { close(): void }): void {
  try {
    c.close();
  } catch { /* closed already */ }
}

/** A Deno.serve app behind a counting TCP front: what the balancer sees is an ordinary HTTP server. */
export function countingUpstream(handler: (req: Request) => Response | Promise<Response>): CountingServer {
  const app = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const front = countingServer(async (conn) => {
    const back = await Deno.connect({ hostname: "127.0.0.1", port: app.addr.port });
    const pump = async (from: Deno.Conn, to: Deno.Conn) => {
      const buf = new Uint8Array(64 * 1024);
      try {
        for (let n = await from.read(buf); n !== null; n = await from.read(buf)) {
          let written = 0;
          while (written < n) written += await to.write(buf.subarray(written, n));
        }
      } catch { /* either side closed */ }
      closeQuietly(conn);
      closeQuietly(back);
    };
    await Promise.all([pump(conn, back), pump(back, conn)]);
  });
  return { ...front, close: async () => (await front.close(), await app.shutdown()) };
}

/** What a scripted upstream does for one request: write these pieces (a pause between), then maybe close. */
export interface Script {
  pieces: string[];
  pauseMs?: number;
  close?: boolean;
}

/** An upstream that reads request heads (and Content-Length bodies) and answers as `script` says. */
export function scriptedUpstream(script: (method: string, path: string) => Script): CountingServer {
  return countingServer(async (conn) => {
    const reader = new LineReader(conn);
    for (;;) {
      const head = await reader.head();
      if (head === null) return;
      await reader.bytes(Number(head.headers["content-length"] ?? 0));
      const { pieces, pauseMs = 0, close = false } = script(head.method, head.target);
      for (const piece of pieces) {
        await conn.write(new TextEncoder().encode(piece));
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
      if (close) return;
    }
  });
}

/** Reads heads, lines and bodies from a socket as latin1 text; keeps what it read past them. */
class LineReader {
  #text = "";
  #ended = false;
  readonly #buf = new Uint8Array(64 * 1024);
  constructor(readonly conn: Deno.Conn) {}

  async #more(): Promise<boolean> {
    if (this.#ended) return false;
    const n = await this.conn.read(this.#buf);
    if (n === null) return !(this.#ended = true);
    this.#text += new TextDecoder("latin1").decode(this.#buf.subarray(0, n));
    return true;
  }

  async line(): Promise<string | null> {
    while (!this.#text.includes("\r\n")) if (!(await this.#more())) return null;
    const at = this.#text.indexOf("\r\n");
    const line = this.#text.slice(0, at);
    this.#text = this.#text.slice(at + 2);
    return line;
  }

  async bytes(n: number): Promise<string> {
    while (this.#text.length < n) {
      if (!(await this.#more())) throw new Error(`ended ${n - this.#text.length} short`);
    }
    const out = this.#text.slice(0, n);
    this.#text = this.#text.slice(n);
    return out;
  }

  async rest(): Promise<string> {
    while (await this.#more()) { /* until the other side closes */ }
    const out = this.#text;
    this.#text = "";
    return out;
  }

  /** A head: its first line split in three, and fields by lower-case name; null at end of stream. */
  async head(): Promise<{ method: string; target: string; headers: Record<string, string> } | null> {
    const first = await this.line();
    if (first === null) return null;
    const [method, target] = first.split(" ");
    const headers: Record<string, string> = {};
    for (let line = await this.line(); line; line = await this.line()) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    return { method, target, headers };
  }
}

/** One client connection, written to as text and read answer by answer. */
export class RawClient {
  readonly #reader: LineReader;
  private constructor(readonly conn: Deno.Conn) {
    this.#reader = new LineReader(conn);
  }

  static async open(port: number): Promise<RawClient> {
    return new RawClient(await Deno.connect({ hostname: "127.0.0.1", port }));
  }

  async send(text: string): Promise<void> {
    await this.conn.write(new TextEncoder().encode(text));
  }

  /** The next answer; `head` when it answers a HEAD request (no body whatever its headers say). */
  async answer(head = false): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const parsed = await this.#reader.head();
    if (parsed === null) throw new Error("connection closed before an answer");
    const status = Number(parsed.target);
    const { headers } = parsed;
    let body = "";
    if (head || status < 200 || status === 204 || status === 304) body = "";
    else if (headers["transfer-encoding"] === "chunked") body = await this.#chunks();
    else if (headers["content-length"] !== undefined) {
      body = await this.#reader.bytes(Number(headers["content-length"]));
    } else body = await this.#reader.rest();
    return { status, headers, body };
  }

  async #chunks(): Promise<string> {
    let body = "";
    for (;;) {
      const size = parseInt((await this.#reader.line()) ?? "", 16);
      if (size === 0) break;
      body += await this.#reader.bytes(size);
      await this.#reader.bytes(2);
    }
    while (await this.#reader.line()) { /* trailer fields, up to the empty line */ }
    return body;
  }

  /** Whatever comes until the balancer closes the connection ("" when it closes at once). */
  rest(): Promise<string> {
    return this.#reader.rest();
  }

  close(): void {
    closeQuietly(this.conn);
  }
}
