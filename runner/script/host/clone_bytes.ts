/**
 * @module
 * About how many bytes a structured clone holds, so a too-big setup() value is refused before its first copy.
 */

/** The estimate for `value`; it stops counting once past `atMostBytes` (the answer is then past it too). */
export function cloneBytes(value: unknown, atMostBytes = Infinity): number {
  const seen = new Set<object>();
  const todo: unknown[] = [value];
  let bytes = 0;
  while (todo.length > 0 && bytes <= atMostBytes) {
    const v = todo.pop();
    if (typeof v === "string") bytes += v.length;
    else if (typeof v === "bigint") bytes += 16;
    else if (typeof v !== "object" || v === null) bytes += 8;
    else if (!seen.has(v)) {
      seen.add(v);
      bytes += 16 + objectBytes(v, todo, seen);
    }
  }
  return bytes;
}

function objectBytes(v: object, todo: unknown[], seen: Set<object>): number {
  if (v instanceof ArrayBuffer || v instanceof SharedArrayBuffer) return v.byteLength;
  if (ArrayBuffer.isView(v)) {
    if (seen.has(v.buffer)) return 0;
    seen.add(v.buffer);
    return v.buffer.byteLength;
  }
  // A collection's items (a map's as [key, item] entries, each counted as a small array).
  if (Array.isArray(v) || v instanceof Map || v instanceof Set) {
    for (const item of v) todo.push(item);
    return 0;
  }
  let keys = 0;
  for (const key of Object.keys(v)) {
    keys += key.length;
    todo.push((v as Record<string, unknown>)[key]);
  }
  return keys;
}
