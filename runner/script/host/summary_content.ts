/**
 * @module
 * A k6 script's handleSummary answer made plain (text or bytes) in its own isolate, before it crosses to
 * loadlab's side; a value that cannot be is marked with why, so the other outputs are still written.
 */

type SummaryContent = string | Uint8Array | { unwritable: string };

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

function contentOf(value: unknown): string | Uint8Array {
  if (typeof value === "string" || value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return JSON.stringify(value) ?? String(value);
}
