/**
 * @module
 * Whether this host can send from an address, asked before a load so a foreign address is refused by name.
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
