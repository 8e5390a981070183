/**
 * @module
 * Promise reads of one WebSocket socket until the reader is done; past TURN_READ_BYTES back to back the
 * event loop gets a turn, as Deno's TLS reads can resolve at once for ever.
 */
import { nextTurn } from "../../load/clock.ts";
import { type TransportConn, TURN_READ_BYTES } from "../transport/transport.ts";

/** Reads `sock` into `buf`, handing each length (null: end) to `onRead` until it returns true. */
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
