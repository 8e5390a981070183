/**
 * @module
 * The one "write every byte" loop: a socket or a file may take fewer bytes than offered per `write`, so
 * each caller (the balancer's relays, the request log, the generator's warm-up sink, test servers) goes
 * on from where the last write stopped.
 */

/** Anything with Deno's `write` contract: a socket (`Deno.Conn`) or a file (`Deno.FsFile`). */
export interface ByteWriter {
  write(bytes: Uint8Array): Promise<number>;
}

/** Writes all of `bytes` to `to`. */
export async function writeAll(to: ByteWriter, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await to.write(at === 0 ? bytes : bytes.subarray(at));
}
