/**
 * @module
 * Fuzz test of the HTTP/3 frame reader and the QPACK decoder: 3,000 inputs from a fixed seed, each one
 * corpus file of another implementation (tests/fixtures/qifs/) damaged (octets flipped, cut short, junk
 * spliced into a block) and fed as a peer would send it, plus random octets as frames. Every call must return
 * a status, 0 or a negative code, never throw, with the dynamic table never above its capacity and the
 * blocked streams never above SETTINGS_QPACK_BLOCKED_STREAMS. Deterministic: a failure names the input.
 */
import { ok as assert } from "node:assert/strict";
import { mulberry32 as rng } from "../tests/fixtures/seeded_random.ts";
import { H3FrameReader } from "./frames.ts";
import { QpackDecoder } from "./qpack_decoder.ts";

const DIR = new URL("../tests/fixtures/qifs/encoded/", import.meta.url);
/** Small files only (netbsd), so the run stays short. */
const FILES = [...Deno.readDirSync(DIR)].flatMap((impl) =>
  [...Deno.readDirSync(new URL(`${impl.name}/`, DIR))]
    .filter((f) => f.name.startsWith("netbsd"))
    .map((f) => ({
      name: `${impl.name}/${f.name}`,
      bin: Deno.readFileSync(new URL(`${impl.name}/${f.name}`, DIR)),
    }))
);
const INPUTS = 3000;

/** A copy of `bin`'s blocks (stream id, data), some damaged. */
function damaged(bin: Uint8Array, r: () => number): { id: number; data: Uint8Array }[] {
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const blocks: { id: number; data: Uint8Array }[] = [];
  for (let at = 0; at < bin.length;) {
    const id = Number(view.getBigUint64(at));
    const len = view.getUint32(at + 8);
    let data = bin.slice(at + 12, at + 12 + len);
    at += 12 + len;
    const roll = r();
    if (roll < 0.1 && data.length > 0) data[Math.floor(r() * data.length)] ^= 1 << Math.floor(r() * 8);
    else if (roll < 0.15) data = data.subarray(0, Math.floor(r() * data.length));
    else if (roll < 0.2) {
      const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 8) }, () => Math.floor(r() * 256));
      const cut = Math.floor(r() * data.length);
      data = Uint8Array.from([...data.subarray(0, cut), ...junk, ...data.subarray(cut)]);
    }
    blocks.push({ id, data });
  }
  return blocks;
}

Deno.test("damaged corpus files and random frames: codes, never exceptions, bounds kept", () => {
  const r = rng(0x3c0de);
  let errors = 0;
  for (let i = 0; i < INPUTS; i++) {
    const file = FILES[Math.floor(r() * FILES.length)];
    const [capacity, blocked] = file.name.split(".").slice(2, 4).map(Number);
    const decoder = new QpackDecoder(capacity, blocked, 8192, capacity);
    try {
      for (const { id, data } of damaged(file.bin, r)) {
        const code = id === 0
          ? decoder.readEncoderStream(data, 0, data.length)
          : decoder.decodeSection(id, data, 0, data.length);
        assert(Number.isInteger(code) && code <= 999, `input ${i} (${file.name}): ${code}`);
        if (code < -1) errors++;
        if (id === 0 && code < 0) break; // the connection is closed
        assert(
          decoder.tableSizeBytes <= decoder.tableCapacityBytes && decoder.tableCapacityBytes <= capacity,
        );
        assert(decoder.blockedStreams <= blocked);
      }
      const frames = Uint8Array.from({ length: Math.floor(r() * 64) }, () => Math.floor(r() * 256));
      const reader = new H3FrameReader(r() < 0.5, 16);
      for (let at = 0; at < frames.length && at >= 0;) at = reader.read(frames, at, frames.length);
    } catch (e) {
      throw new Error(`input ${i} (${file.name}): ${e}`);
    }
  }
  // The damage is seen: a share of the inputs ends in an error code.
  assert(errors > INPUTS / 10, `${errors} errors`);
});
