/**
 * @module
 * Why a text is not JSON, without the text: V8's `JSON.parse` messages quote the input around the fault
 * (`Unexpected token 'Q', "{"token": Q…" is not valid JSON`), and the input is a file that may hold
 * secrets (a data file's passwords, a results file written with `--no-redact`). Every "not JSON" message
 * of a file says why through here; the reason and the position, where V8 gives one, stay.
 */

/** `err`'s message (a `JSON.parse` error) with the excerpt of the input it quotes left out. */
export function jsonErrorReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, "");
}
