/**
 * @module
 * A k6 script's handleSummary answer (`{ stdout: text, "out/summary.json": JSON.stringify(data), ... }`)
 * made plain in the isolate that made it, before it crosses to loadlab's side: each value as text or
 * bytes, its own `toJSON`, getters and `toString` run where they live. A value that cannot be made so (its
 * `toJSON` throws, a Symbol's description that throws) is marked with why, so the other outputs are still
 * written (one such value lost every output, since the whole answer could not be cloned). Pure.
 */

/** One output's content, or why it has none. */
export type SummaryContent = string | Uint8Array | { unwritable: string };

/** `answer` with each value made text or bytes; a value that is not an object is returned as it is. */
export function summaryContents(answer: unknown, describe: (err: unknown) => string): unknown {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return answer;
  const out: Record<string, SummaryContent> = {};
  for (const [key, value] of Object.entries(answer)) {
    try {
      out[key] = contentOf(value);
    } catch (err) {
      out[key] = { unwritable: describe(err) };
    }
  }
  return out;
}

/** A value as text or bytes: bytes as given, other values as JSON, else as text. */
function contentOf(value: unknown): string | Uint8Array {
  if (typeof value === "string" || value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return JSON.stringify(value) ?? String(value);
}
