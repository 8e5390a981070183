/**
 * @module
 * The QPACK offline interop corpus (github:qpackers/qifs, a sample in tests/fixtures/qifs/): files that six
 * other implementations encoded, each decoded to exactly the header lists of its .qif, for every table
 * capacity, blocked-streams and ack-mode variant present; and our encoder's output decoded back. A file is
 * blocks of (stream id: 8 octets, length: 4 octets, data), stream 0 the encoder stream; the n-th request
 * stream carries the n-th list. Names its variants `<qif>.out.<capacity>.<blocked streams>.<ack mode>`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  QPACK_BAD_FIELD,
  QPACK_BLOCKED,
  QPACK_TOO_MANY_BLOCKED,
  QpackDecoder,
  qpackErrorName,
} from "./qpack_decoder.ts";
import { encodeFieldSection } from "./qpack_encoder.ts";

const DIR = new URL("../tests/fixtures/qifs/", import.meta.url);

type Field = [string, string];

function readQif(name: string): Field[][] {
  const lists: Field[][] = [];
  let list: Field[] = [];
  for (const line of Deno.readTextFileSync(new URL(`qifs/${name}.qif`, DIR)).split("\n")) {
    if (line.startsWith("#")) continue;
    if (line === "") {
      if (list.length > 0) lists.push(list);
      list = [];
      continue;
    }
    const tab = line.indexOf("\t");
    list.push([line.slice(0, tab), line.slice(tab + 1)]);
  }
  if (list.length > 0) lists.push(list);
  return lists;
}

/**
 * Whether RFC 9114 4.2/4.3 make a list malformed: a connection-specific field, `te` other than trailers,
 * or a pseudo-header after a regular field (the fb-req lists put `:path` first and the rest last).
 */
function malformed(list: Field[]): boolean {
  const firstRegular = list.findIndex(([n]) => !n.startsWith(":"));
  return list.some(([n, v], i) =>
    ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"].includes(n) ||
    (n === "te" && v !== "trailers") || (n.startsWith(":") && firstRegular >= 0 && i > firstRegular)
  );
}

/**
 * Decodes a corpus file as a peer would meet it: encoder stream chunks (fed in `split`-octet pieces) and
 * sections in file order, a blocked section kept and decoded when `readyStream` names it. Returns the
 * fields and result code of each stream.
 */
function decodeFile(bin: Uint8Array, capacity: number, blocked: number, split: number) {
  const decoder = new QpackDecoder(capacity, blocked, 1 << 20, capacity);
  const decoded = new Map<number, { fields: Field[]; code: number }>();
  const waiting = new Map<number, Uint8Array>();
  let maxBlocked = 0;
  const decode = (id: number, block: Uint8Array) => {
    const fields: Field[] = [];
    const code = decoder.decodeSection(id, block, 0, block.length, (n, v) => fields.push([n, v]));
    if (code === QPACK_BLOCKED) waiting.set(id, block);
    else {
      waiting.delete(id);
      decoded.set(id, { fields, code });
    }
    maxBlocked = Math.max(maxBlocked, decoder.blockedStreams);
  };
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  for (let at = 0; at < bin.length;) {
    const id = Number(view.getBigUint64(at));
    const len = view.getUint32(at + 8);
    at += 12;
    if (id === 0) {
      for (let k = at; k < at + len; k += split) {
        const code = decoder.readEncoderStream(bin, k, Math.min(k + split, at + len));
        if (code < 0) throw new Error(`encoder stream: ${qpackErrorName(code)}`);
      }
      for (let s = decoder.readyStream(); s >= 0; s = decoder.readyStream()) decode(s, waiting.get(s)!);
    } else decode(id, bin.subarray(at, at + len));
    at += len;
  }
  assertEquals(waiting.size, 0);
  return { decoded, maxBlocked, decoder };
}

function checkFile(impl: string, file: string, split = 1 << 30): void {
  const [, qif, capacity, blocked] = file.match(/^(.+)\.out\.(\d+)\.(\d+)\.(\d)$/)!;
  const lists = readQif(qif);
  const bin = Deno.readFileSync(new URL(`encoded/${impl}/${file}`, DIR));
  const { decoded, maxBlocked } = decodeFile(bin, +capacity, +blocked, split);
  const ids = [...decoded.keys()].sort((a, b) => a - b);
  assertEquals(ids.length, lists.length, `${impl}/${file}: streams`);
  ids.forEach((id, i) => {
    const { fields, code } = decoded.get(id)!;
    assertEquals(fields, lists[i], `${impl}/${file}: stream ${id}`);
    assertEquals(code, malformed(lists[i]) ? QPACK_BAD_FIELD : 0, `${impl}/${file}: stream ${id} code`);
  });
  assert(maxBlocked <= +blocked);
}

const IMPLEMENTATIONS = ["f5", "ls-qpack", "nghttp3", "proxygen", "qthingey", "quinn"];

Deno.test("every file of six implementations decodes to exactly its header lists", () => {
  const counts: Record<string, number> = {};
  for (const impl of IMPLEMENTATIONS) {
    for (const { name } of Deno.readDirSync(new URL(`encoded/${impl}/`, DIR))) {
      checkFile(impl, name);
      counts[impl] = (counts[impl] ?? 0) + 1;
    }
  }
  console.log("QPACK corpus files decoded per implementation:", counts);
  assertEquals(counts, { f5: 26, "ls-qpack": 34, nghttp3: 34, proxygen: 26, qthingey: 34, quinn: 34 });
});

Deno.test("an encoder stream split at every octet decodes the same", () => {
  for (const impl of IMPLEMENTATIONS) checkFile(impl, "netbsd.out.4096.100.1", 1);
});

Deno.test("a section that would block beyond SETTINGS_QPACK_BLOCKED_STREAMS fails", () => {
  // The file's encoder counted on 100 blocked streams (its sections come before their inserts 100 times).
  const bin = Deno.readFileSync(new URL("encoded/quinn/fb-req.out.4096.100.1", DIR));
  const { decoded, maxBlocked } = decodeFile(bin, 4096, 0, 1 << 30);
  const refused = [...decoded.values()].filter((d) => d.code === QPACK_TOO_MANY_BLOCKED).length;
  assertEquals([refused, maxBlocked], [100, 0]);
});

Deno.test("our encoder's sections decode to the lists it was given", () => {
  for (const qif of ["netbsd", "netbsd-hq", "fb-req"]) {
    const decoder = new QpackDecoder();
    readQif(qif).forEach((list, i) => {
      const block = encodeFieldSection(list);
      const fields: Field[] = [];
      const code = decoder.decodeSection(4 * i, block, 0, block.length, (n, v) => fields.push([n, v]));
      assertEquals(fields, list);
      assertEquals(code, malformed(list) ? QPACK_BAD_FIELD : 0);
    });
    assert(!decoder.hasDecoderInstructions, "a section without the dynamic table needs no acknowledgment");
  }
});
