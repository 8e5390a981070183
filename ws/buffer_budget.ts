/**
 * @module
 * The bytes a worker's WebSocket connections may hold together in messages in progress: each connection's
 * cap bounds one message, this bounds their sum, so thousands of connections held a few bytes short of
 * their cap cannot take the machine's memory (past it: close 1009, counted).
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
