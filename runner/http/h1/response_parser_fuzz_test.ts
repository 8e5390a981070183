/**
 * @module
 * Fuzz test of the response parser: 100,000 inputs generated from a fixed seed (valid responses of every
 * framing, then mutated: bytes flipped, cut short, lines blown up past the head cap, garbage spliced in)
 * and fed split at random points, as reads from a hostile server arrive. Every input must end as
 * responses or one counted error, exactly as the same bytes read whole do (each response's end, status and
 * body), no exception may escape, `feed` must always make progress, and the
 * parser (the shared framing module, http1/message_framer.ts) must hold no bytes between reads and read
 * no more than the head cap plus one read before it rejects an oversized head. Deterministic: a failure
 * names the seed index to replay.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
// Seeded, so a failing input can be regenerated from its index.
import { mulberry32 as rng } from "../../../tests/fixtures/seeded_random.ts";
import { NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { ResponseParser } from "./response_parser.ts";

const INPUTS = 100_000;
const HEAD_CAP = 2048;
const READ_MAX = 512;
const enc = new TextEncoder();

const STATUSES = [100, 103, 200, 201, 204, 301, 304, 404, 500, 503];

/** One well-formed response of a random framing (maybe with interim 1xx heads before it). */
function validResponse(r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  let out = r() < 0.1 ? "HTTP/1.1 100 Continue\r\n\r\n" : "";
  const status = pick(STATUSES.filter((s) => s >= 200));
  const version = r() < 0.9 ? "1.1" : "1.0";
  out += `HTTP/${version} ${status} X\r\n`;
  for (let k = Math.floor(r() * 4); k > 0; k--) out += `X-H${k}: ${"v".repeat(Math.floor(r() * 40))}\r\n`;
  if (r() < 0.2) out += `Connection: ${r() < 0.5 ? "close" : "keep-alive"}\r\n`;
  const body = "b".repeat(Math.floor(r() * 300));
  const framing = r();
  if (framing < 0.5) out += `Content-Length: ${body.length}\r\n\r\n${body}`;
  else if (framing < 0.85) {
    out += "Transfer-Encoding: chunked\r\n\r\n";
    for (let rest = body; rest.length > 0;) {
      const size = 1 + Math.floor(r() * rest.length);
      out += `${size.toString(16)}${r() < 0.1 ? ";ext=1" : ""}\r\n${rest.slice(0, size)}\r\n`;
      rest = rest.slice(size);
    }
    out += r() < 0.1 ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n";
  } else out += `\r\n${body}`; // framed by the close
  return out;
}

/** A valid response, one or two pipelined, then maybe damaged in one of several ways. */
function generate(r: () => number): Uint8Array {
  let text = validResponse(r);
  if (r() < 0.2) text += validResponse(r);
  const bytes = enc.encode(text);
  const kind = r();
  if (kind < 0.35) return bytes; // intact
  if (kind < 0.55) { // flip a few bytes
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--) bytes[Math.floor(r() * bytes.length)] = r() * 256;
    return bytes;
  }
  if (kind < 0.7) return bytes.subarray(0, Math.floor(r() * bytes.length)); // cut short
  if (kind < 0.8) { // one header line far past the cap, or many small ones
    const line = r() < 0.5 ? `X-Big: ${"a".repeat(HEAD_CAP * 2)}\r\n` : "X-A: b\r\n".repeat(HEAD_CAP / 4);
    return enc.encode(text.replace("\r\n", `\r\n${line}`));
  }
  if (kind < 0.9) { // garbage spliced in somewhere
    const at = Math.floor(r() * bytes.length);
    const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 64) }, () => r() * 256);
    const out = new Uint8Array(bytes.length + junk.length);
    out.set(bytes.subarray(0, at));
    out.set(junk, at);
    out.set(bytes.subarray(at), at + junk.length);
    return out;
  }
  return Uint8Array.from({ length: Math.floor(r() * 400) }, () => r() * 256); // random bytes
}

interface Outcome {
  responses: number;
  errors: number;
  /** Where each response ended and what it was, then the error or EOF: the same for every split. */
  trace: string;
}

/**
 * Feeds `bytes` in random reads (one read of all when `whole`), pipelining on leftovers, as h1/connection.ts
 * does; EOF at the end.
 */
function consume(
  bytes: Uint8Array,
  r: () => number,
  index: number,
  isHead: boolean,
  whole: boolean,
): Outcome {
  const p = new ResponseParser(HEAD_CAP);
  const outcome = { responses: 0, errors: 0, trace: "" };
  p.start(isHead);
  let headFed = 0; // bytes fed since the current response started, while its head was not done
  let from = 0;
  while (from < bytes.length) {
    const to = whole ? bytes.length : Math.min(bytes.length, from + 1 + Math.floor(r() * READ_MAX));
    let offset = from;
    while (offset < to) {
      const end = p.feed(bytes, offset, to);
      if (end === PARSE_ERROR) {
        if (!whole && p.error.startsWith("response head larger")) {
          headFed += to - offset;
          assert(headFed <= HEAD_CAP + READ_MAX, `input ${index}: ${headFed} head bytes read before the cap`);
        }
        outcome.errors++;
        outcome.trace += ` error`;
        return outcome;
      }
      if (end === NEED_MORE) {
        headFed += to - offset;
        break;
      }
      assert(end > offset && end <= to, `input ${index}: feed returned ${end} for [${offset}, ${to})`);
      outcome.responses++;
      outcome.trace += ` ${end}:${p.status}:${p.bodyBytes}:${p.keepAlive}`;
      if (!p.keepAlive) return outcome; // the connection closes after it: the rest is never read
      p.start(false);
      headFed = 0;
      offset = end;
    }
    from = to;
  }
  if (p.completesAtEof()) {
    outcome.responses++;
    outcome.trace += ` eof:${p.status}:${p.bodyBytes}`;
  } else if (p.started) {
    outcome.errors++; // closed-early
    outcome.trace += " cut";
  }
  return outcome;
}

Deno.test(`parser fuzz: ${INPUTS} generated inputs in random splits end as responses or one counted error`, () => {
  const r = rng(0x10adab);
  const totals = { responses: 0, errors: 0, empty: 0 };
  for (let i = 0; i < INPUTS; i++) {
    const bytes = generate(r);
    let outcome: Outcome;
    const isHead = r() < 0.05;
    try {
      outcome = consume(bytes, r, i, isHead, false);
      // A split never changes where a response ends or what it was (a misjudged boundary would shift
      // every later response on the connection): the same bytes in one read conclude the same.
      assertEquals(consume(bytes, r, i, isHead, true).trace, outcome.trace, `input ${i}: split vs whole`);
    } catch (err) {
      throw new Error(`input ${i} threw: ${(err as Error).message}`, { cause: err });
    }
    assert(outcome.errors <= 1, `input ${i}: more than one error`);
    if (outcome.responses + outcome.errors === 0) {
      assertEquals(bytes.length, 0, `input ${i}: ${bytes.length} bytes ended as nothing`);
      totals.empty++;
    }
    totals.responses += outcome.responses;
    totals.errors += outcome.errors;
  }
  // The generator must reach both outcomes often, or the test proves little.
  assert(totals.responses > INPUTS / 2, JSON.stringify(totals));
  assert(totals.errors > INPUTS / 5, JSON.stringify(totals));
});
