/**
 * @module
 * The connect of an HTTP/2 connection: through the worker's connect gate, given up at the timeout (a
 * timer of its own, once per connect: the watchdog watches streams, not connections), recorded as an
 * HTTP/1.1 connect is (connect time apart from the TLS handshake, reconnects), or counted by kind when
 * it fails.
 */
import type { ConnectionShared } from "./connection.ts";
import { classifyError, connectTimeoutMessage, errorMessage } from "./exchange_errors.ts";
import { tlsFailureMessage } from "./tls_options.ts";
import type { TransportConn } from "./transport.ts";

export class H2Dialer {
  #connecting: AbortController | null = null;
  #timedOut = false;
  #everOpened = false;

  constructor(readonly shared: ConnectionShared) {}

  /** Aborts the connect under way (shutdown; the timeout does it itself). */
  abort(): void {
    this.#connecting?.abort();
  }

  /** Dials once the gate has room; the socket, or null when the connect failed (counted) or the run stops. */
  async dial(): Promise<TransportConn | null> {
    const gate = this.shared.connectGate;
    const wait = gate.acquire();
    if (wait !== undefined) await wait;
    try {
      return this.shared.stopping ? null : await this.#dial();
    } finally {
      gate.release();
    }
  }

  async #dial(): Promise<TransportConn | null> {
    const { recorder, timeoutMs } = this.shared;
    const startMs = performance.now();
    this.#timedOut = false;
    const connecting = new AbortController();
    this.#connecting = connecting;
    const timer = setTimeout(() => {
      this.#timedOut = true;
      connecting.abort();
    }, timeoutMs);
    let sock: TransportConn;
    try {
      sock = await this.shared.transport(this.shared.hostname, this.shared.port, connecting.signal);
    } catch (err) {
      const message = this.#timedOut ? connectTimeoutMessage(timeoutMs, err) : errorMessage(err);
      if (!this.shared.stopping) {
        const kind = classifyError(err, "connect");
        recorder.recordError(performance.now(), kind, kind === "tls" ? tlsFailureMessage(message) : message);
      }
      return null;
    } finally {
      clearTimeout(timer);
      this.#connecting = null;
    }
    const nowMs = performance.now();
    const tlsMs = (sock as { tlsMs?: number }).tlsMs ?? -1;
    recorder.connections++;
    recorder.connected(nowMs, (nowMs - startMs - Math.max(tlsMs, 0)) * 1000, tlsMs * 1000);
    if (this.#everOpened) recorder.reconnected(nowMs);
    this.#everOpened = true;
    return sock;
  }
}
