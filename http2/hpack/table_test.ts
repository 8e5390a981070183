/**
 * The HPACK dynamic table against a plain list of its fields: its ring and byte buffer start small and
 * grow as entries come, evict the oldest past the maximum size, and wrap, and every index still names
 * the field a list of (name, value) pairs, newest first, says it should.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DynamicTable, ENTRY_OVERHEAD } from "./table.ts";

const text = new TextEncoder();
const bytes = (s: string) => text.encode(s);

function fieldsOf(table: DynamicTable): Array<[string, string, number]> {
  const out: Array<[string, string, number]> = [];
  const decode = (off: number, len: number) => new TextDecoder().decode(table.data.subarray(off, off + len));
  for (let i = 1; i <= table.count; i++) {
    const s = table.slot(i);
    out.push([
      decode(table.nameOffset(s), table.nameLength(s)),
      decode(table.valueOffset(s), table.valueLength(s)),
      table.mark(s),
    ]);
  }
  return out;
}

Deno.test("HPACK table: entries grow the ring and buffer, evict and wrap as a list of them says", () => {
  for (const capacity of [4096, 300, 64]) {
    const table = new DynamicTable(capacity);
    const list: Array<[string, string, number]> = [];
    let size = 0;
    for (let n = 0; n < 500; n++) {
      const name = `x-${n % 7}`;
      const value = "v".repeat(n % 23);
      const entry = name.length + value.length + ENTRY_OVERHEAD;
      if (n % 3 === 0 && table.count > 0) {
        // A name taken from the table itself, as a decoder's indexed name is.
        const s = table.slot(1 + (n % table.count));
        const ref = new TextDecoder().decode(
          table.data.subarray(table.nameOffset(s), table.nameOffset(s) + table.nameLength(s)),
        );
        table.add(table.data, table.nameOffset(s), table.nameLength(s), bytes(value), 0, value.length, n & 3);
        list.unshift([ref, value, n & 3]);
        size += ref.length + value.length + ENTRY_OVERHEAD;
      } else {
        table.add(bytes(name), 0, name.length, bytes(value), 0, value.length, n & 3);
        list.unshift([name, value, n & 3]);
        size += entry;
      }
      while (size > capacity) {
        const [a, b] = list.pop()!;
        size -= a.length + b.length + ENTRY_OVERHEAD;
      }
      assertEquals(fieldsOf(table), list, `capacity ${capacity}, after ${n + 1} adds`);
      assertEquals(table.sizeBytes, size);
    }
  }
});

Deno.test("HPACK table: a smaller maximum evicts, and a field over it empties the table", () => {
  const table = new DynamicTable(4096);
  for (let n = 0; n < 40; n++) table.add(bytes(`n${n}`), 0, `n${n}`.length, bytes("v"), 0, 1, 0);
  assertEquals(table.count, 40);
  table.setMaxSize(3 * (3 + 1 + ENTRY_OVERHEAD));
  assertEquals(fieldsOf(table).map((f) => f[0]), ["n39", "n38", "n37"]);
  const big = "b".repeat(200);
  table.add(bytes(big), 0, big.length, bytes("v"), 0, 1, 0);
  assertEquals(table.count, 0);
});

Deno.test("HPACK table: a field added again and again keeps the buffer at twice what is live", () => {
  const table = new DynamicTable(4096);
  table.setMaxSize(200); // three entries of 33 + 32 octets live at most
  for (let n = 0; n < 10_000; n++) {
    const value = `Wed, 25 Nov 2026 14:${String(n % 60).padStart(2, "0")}:00 GMT`;
    table.add(bytes("date"), 0, 4, bytes(value), 0, value.length, 0);
  }
  assertEquals(table.count, 3);
  assertEquals(table.data.length <= 256, true, `buffer ${table.data.length} octets`);
});
