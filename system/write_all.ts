/**
 * @module
 * Writes every byte: a socket or file may take fewer than offered per `write`. And the close of a socket,
 * listener or stream that may be closed already.
 */

interface ByteWriter {
  write(bytes: Uint8Array): Promise<number>;
}

export async function writeAll(to: ByteWriter, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await to.write(at === 0 ? bytes : bytes.subarray(at));
}

/** Closes `resource`; one closed already (by its peer, a timer, an abort or its own loop) is fine. */
export function closeQuietly(resource: { close(): void }): void {
  try {
    resource.close();
  } catch { /* closed already */ }
}
