/**
 * @module
 * Promise reads of one WebSocket socket (Deno's sockets; the handshake's and the close's waits on any
 * transport) until the reader says it is done. Past TURN_READ_BYTES read back to back the event loop gets a
 * turn: over TLS Deno's reads resolve at once from what the TLS layer holds, so a server flooding tiny
 * frames would otherwise keep the watchdog, the stop and the worker's timers from ever running.
 */
import { nextTurn } from "../../load/clock.ts";
import { type TransportConn, TURN_READ_BYTES } from "../transport/transport.ts";

/**
 * Reads `sock` into `buf`, handing each read's length (null: end of stream) to `onRead` until it returns
 * true; a failed read goes to `onError` and ends the loop.
 */
export async function readLoop(
  sock: TransportConn,
  buf: Uint8Array,
  onRead: (n: number | null) => boolean,
  onError: (err: unknown) => void,
): Promise<void> {
  let budget = TURN_READ_BYTES;
  while (true) {
    let n: number | null;
    try {
      if (budget <= 0) {
        budget = TURN_READ_BYTES;
        await nextTurn();
      }
      n = await sock.read(buf);
    } catch (err) {
      onError(err);
      return;
    }
    budget -= n ?? 0;
    if (onRead(n)) return;
  }
}
