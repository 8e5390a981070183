/**
 * @module
 * Writes every byte: a socket or file may take fewer than offered per `write`.
 */

interface ByteWriter {
  write(bytes: Uint8Array): Promise<number>;
}

export async function writeAll(to: ByteWriter, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await to.write(at === 0 ? bytes : bytes.subarray(at));
}
