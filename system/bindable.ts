/**
 * @module
 * Whether this host can send from an address: a listener bound to it on a free port and closed at once.
 * Asked once per source address before a load (`--source-addresses`), so an address that is not this
 * host's is refused with its name instead of failing every connect of the run.
 */

/** The first of `addresses` this host cannot bind, with the error in words; null when every one binds. */
export function unbindableAddress(addresses: readonly string[]): string | null {
  for (const hostname of addresses) {
    try {
      Deno.listen({ hostname, port: 0 }).close();
    } catch (err) {
      return `${hostname}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return null;
}
