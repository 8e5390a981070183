/**
 * @module
 * The bytes a worker's WebSocket connections may hold together in unfinished messages (past it: 1009).
 */

export const DEFAULT_MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

export class BufferBudget {
  usedBytes = 0;

  constructor(readonly limitBytes: number) {}

  /** Takes `n` bytes when they fit (true); takes nothing otherwise. */
  take(n: number): boolean {
    if (this.usedBytes + n > this.limitBytes) return false;
    this.usedBytes += n;
    return true;
  }

  give(n: number): void {
    this.usedBytes -= n;
  }

  /** Why a message of `bytesSoFar` was refused, naming the knob. */
  refusal(bytesSoFar: number): string {
    return `a message in progress (${bytesSoFar} bytes so far) does not fit the worker's ${this.limitBytes}-byte ` +
      "budget for messages in progress, held by its connections (raise --ws-max-buffered)";
  }
}
