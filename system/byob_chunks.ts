/**
 * @module
 * A stream's chunks in pooled buffers (BYOB reads): Deno's resource-backed ones take 64 KiB a default read.
 */

const pool: ArrayBuffer[] = [];
const CHUNK_BYTES = 16384;

/** The chunks of `readable`, each a view on a pooled buffer that the next read reuses. */
export async function* byobChunks(readable: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = readable.getReader({ mode: "byob" });
  let buffer = pool.pop() ?? new ArrayBuffer(CHUNK_BYTES);
  try {
    for (;;) {
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (value !== undefined) buffer = value.buffer;
      if (done) return;
      yield value;
    }
  } finally {
    // A read that failed or was cancelled keeps its buffer (detached: 0 octets).
    if (buffer.byteLength > 0) pool.push(buffer);
    reader.releaseLock();
  }
}
