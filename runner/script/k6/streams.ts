/**
 * @module
 * k6's `k6/experimental/streams`: the web streams API, which Deno has natively (k6 implements its own).
 */
export const {
  ReadableStream,
  ReadableStreamDefaultReader,
  CountQueuingStrategy,
  WritableStream,
  WritableStreamDefaultWriter,
} = globalThis;

export default {
  ReadableStream,
  ReadableStreamDefaultReader,
  CountQueuingStrategy,
  WritableStream,
  WritableStreamDefaultWriter,
};
