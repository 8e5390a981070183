/**
 * @module
 * The bytes a worker's WebSocket connections may hold together in messages in progress (a message cut
 * across reads or into fragments is gathered before it is handed over, ws/frame_parser.ts). Each
 * connection's own cap bounds one message; this bounds their sum, so a server that keeps every one of
 * thousands of connections a few bytes short of a capped message cannot take the machine's memory: past
 * the budget a message is refused as too big to process (close 1009), counted with its reason, and the
 * run goes on. Shared by the worker's connections; nothing here runs per message unless a buffer grows.
 */

/** What a worker's connections may hold in messages in progress, unless the config says otherwise. */
export const DEFAULT_MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

export class BufferBudget {
  /** Bytes held now. */
  usedBytes = 0;

  constructor(readonly limitBytes: number) {}

  /** Takes `n` bytes when they fit (true); takes nothing otherwise. */
  take(n: number): boolean {
    if (this.usedBytes + n > this.limitBytes) return false;
    this.usedBytes += n;
    return true;
  }

  /** Gives back `n` bytes taken before. */
  give(n: number): void {
    this.usedBytes -= n;
  }

  /** Why a message of `bytesSoFar` was refused, naming the knob. */
  refusal(bytesSoFar: number): string {
    return `a message in progress (${bytesSoFar} bytes so far) does not fit the worker's ${this.limitBytes}-byte ` +
      "budget for messages in progress, held by its connections (raise --ws-max-buffered)";
  }
}
