/**
 * @module
 * A byte stream's chunks read into buffers of a pool (a BYOB reader), for Deno's resource-backed streams
 * (QUIC streams among them), whose default reader allocates a new 64 KiB buffer for every read. A chunk is
 * valid until the loop asks for the next one; its buffer goes back to the pool when the stream ends.
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
