/**
 * @module
 * Server-Sent Events to any number of browsers: an event is encoded once and never waits on a browser.
 */

const encoder = new TextEncoder();

/** Default bound of one client's queue: far above a run's snapshot, far below a worry. */
const CLIENT_BUFFER_BYTES = 8 << 20;

interface Client {
  controller: ReadableStreamDefaultController<Uint8Array>;
  open: boolean;
}

/** How the clients fared, for `/stats` and the tests. */
export interface HubStats {
  clients: number;
  dropped: number;
  /** The most bytes any client's queue held right after an event was added. */
  maxQueuedBytes: number;
  limitBytes: number;
}

/** One SSE frame: `event:` line, the JSON on one `data:` line (JSON.stringify never emits newlines). */
export function sseFrame(event: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The set of connected browsers. */
export class EventHub {
  readonly #clients = new Set<Client>();
  readonly #limitBytes: number;
  #dropped = 0;
  #maxQueuedBytes = 0;

  constructor(limitBytes = CLIENT_BUFFER_BYTES) {
    this.#limitBytes = limitBytes;
  }

  /** A `text/event-stream` response for a new client, starting with `initial` frames. */
  connect(initial: Uint8Array[]): Response {
    let client: Client;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        client = { controller, open: true };
        this.#clients.add(client);
        for (const frame of initial) this.#offer(client, frame);
      },
      cancel: () => this.#forget(client),
    }, new ByteLengthQueuingStrategy({ highWaterMark: this.#limitBytes }));
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  }

  /** Sends one event to every client; returns at once. */
  send(event: string, data: unknown): void {
    if (this.#clients.size > 0) this.sendFrame(sseFrame(event, data));
  }

  /** Sends an already encoded frame (`sseFrame`) to every client. */
  sendFrame(frame: Uint8Array): void {
    for (const client of this.#clients) this.#offer(client, frame);
  }

  /** A comment line; keeps idle connections from being closed by proxies and finds dead sockets. */
  ping(): void {
    const frame = encoder.encode(": ping\n\n");
    for (const client of this.#clients) this.#offer(client, frame);
  }

  /** Ends every stream after what is queued (the final snapshot) has been sent. */
  closeAll(): void {
    for (const client of this.#clients) {
      this.#forget(client);
      try {
        client.controller.close();
      } catch { /* already closed by the browser */ }
    }
  }

  stats(): HubStats {
    return {
      clients: this.#clients.size,
      dropped: this.#dropped,
      maxQueuedBytes: this.#maxQueuedBytes,
      limitBytes: this.#limitBytes,
    };
  }

  #offer(client: Client, frame: Uint8Array): void {
    if (!client.open) return;
    const queued = this.#limitBytes - (client.controller.desiredSize ?? 0);
    if (queued > 0 && queued + frame.byteLength > this.#limitBytes) return this.#drop(client);
    client.controller.enqueue(frame);
    this.#maxQueuedBytes = Math.max(this.#maxQueuedBytes, queued + frame.byteLength);
  }

  /** Too far behind: the queue is discarded and the connection ends (the browser may reconnect). */
  #drop(client: Client): void {
    this.#forget(client);
    this.#dropped++;
    try {
      client.controller.error(new Error("dropped: the client fell too far behind"));
    } catch { /* already gone */ }
  }

  #forget(client: Client): void {
    client.open = false;
    this.#clients.delete(client);
  }
}
