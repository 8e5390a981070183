/**
 * Valid responses built from every octet their grammar allows (RFC 9112, RFC 9110 5.6), from a fixed
 * seed: reason phrases and field values of HTAB, SP, VCHAR and obs-text (0x80-0xFF), field names of every
 * tchar, framing names in any letter case, OWS around values, list forms (`5, 5`, empty TE elements),
 * chunk sizes with leading zeros in either hex case, chunk extensions with quoted strings (escaped quotes,
 * obs-text), trailers, interim heads, and CRLF or a bare LF ending each line of a head. Each is pipelined
 * with a second response and read in random splits: both must be read, ending exactly where they end. A
 * rare octet refused in a valid response is the bug class this guards (a valid response counted as a
 * parse error), as the HPACK decoder's rare-octet fuzz does for HTTP/2.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mulberry32 as rng } from "../../../tests/fixtures/seeded_random.ts";
import { NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { ResponseParser } from "./response_parser.ts";

const INPUTS = 5_000;
const TCHARS = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Octets of a reason phrase or field value (not first or last of a value: no OWS there). */
const VALUE_OCTETS = [
  9,
  32,
  ...Array.from({ length: 94 }, (_, k) => 33 + k),
  ...Array.from({ length: 128 }, (_, k) => 128 + k),
];

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const octets = (r: Rand, n: number, from = VALUE_OCTETS) => Array.from({ length: n }, () => pick(r, from));
const text = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const anyCase = (r: Rand, s: string) => text(s).map((c) => (c >= 97 && c <= 122 && r() < 0.5 ? c - 32 : c));
const ows = (r: Rand) => octets(r, Math.floor(r() * 3), [9, 32]);

/** A value that starts and ends with a visible octet (OWS around it is the field line's, not the value's). */
function value(r: Rand): number[] {
  const visible = VALUE_OCTETS.filter((c) => c > 32);
  return r() < 0.1 ? [] : [pick(r, visible), ...octets(r, Math.floor(r() * 30)), pick(r, visible)];
}

/** One valid response and its body length; `eol` ends each head line. */
function response(r: Rand): { bytes: number[]; body: number } {
  const eol = () => (r() < 0.3 ? [10] : [13, 10]);
  const out: number[] = [];
  const field = (name: number[], v: number[]) => out.push(...name, 58, ...ows(r), ...v, ...ows(r), ...eol());
  for (let k = Math.floor(r() * 3); k > 0; k--) {
    out.push(...text(`HTTP/1.1 1${k}3`), ...(r() < 0.5 ? [] : [32, ...value(r)]), ...eol(), ...eol());
  }
  out.push(...text(`HTTP/1.${pick(r, ["1", "1", "2"])} ${pick(r, ["200", "201", "404", "599", "000"])}`));
  if (r() < 0.9) out.push(32, ...value(r)); // a reason, maybe empty, after the SP
  out.push(...eol());
  for (let k = Math.floor(r() * 4); k > 0; k--) {
    field(octets(r, 1 + Math.floor(r() * 12), text(TCHARS)), value(r));
  }
  const body = Math.floor(r() * 40);
  if (r() < 0.5) {
    const n = text(String(body));
    field(
      anyCase(r, "content-length"),
      r() < 0.3 ? [...n, ...ows(r), 44, ...ows(r), ...n] : [...text("0".repeat(Math.floor(r() * 3))), ...n],
    );
    out.push(...eol(), ...octets(r, body, text("b")));
    return { bytes: out, body };
  }
  field(
    anyCase(r, "transfer-encoding"),
    r() < 0.3 ? [...text("gzip"), 44, ...ows(r), 44, ...anyCase(r, "chunked")] : anyCase(r, "chunked"),
  );
  out.push(...eol());
  for (let rest = body; rest > 0;) {
    const size = 1 + Math.floor(r() * rest);
    const hex = size.toString(16);
    out.push(
      ...text("0".repeat(Math.floor(r() * 3))),
      ...text(r() < 0.5 ? hex : hex.toUpperCase()),
      ...ows(r),
    );
    if (r() < 0.3) {
      out.push(
        59,
        ...ows(r),
        ...text("x"),
        ...ows(r),
        61,
        ...ows(r),
        34,
        ...text('a\\"'),
        ...octets(r, 3, VALUE_OCTETS.filter((c) => c !== 34 && c !== 92)),
        34,
      );
    }
    out.push(13, 10, ...octets(r, size, text("c")), 13, 10);
    rest -= size;
  }
  out.push(48, 13, 10);
  if (r() < 0.3) out.push(...octets(r, 1 + Math.floor(r() * 8), text(TCHARS)), 58, 32, ...value(r), 13, 10);
  out.push(13, 10);
  return { bytes: out, body };
}

Deno.test(`parser: ${INPUTS} valid responses of every allowed octet, pipelined, read in random splits`, () => {
  const r = rng(0x0c7e75);
  for (let i = 0; i < INPUTS; i++) {
    const a = response(r), b = response(r);
    const bytes = Uint8Array.from([...a.bytes, ...b.bytes]);
    const p = new ResponseParser();
    const ends: number[] = [];
    const bodies: number[] = [];
    p.start(false);
    for (let from = 0, offset = 0; from < bytes.length;) {
      const to = Math.min(bytes.length, from + 1 + Math.floor(r() * 64));
      while (offset < to) {
        const end = p.feed(bytes, offset, to);
        if (end === PARSE_ERROR) {
          throw new Error(`input ${i}: ${p.error} in ${JSON.stringify(String.fromCharCode(...bytes))}`);
        }
        if (end === NEED_MORE) {
          offset = to;
          break;
        }
        ends.push(end);
        bodies.push(p.bodyBytes);
        p.start(false);
        offset = end;
      }
      from = to;
    }
    assertEquals([ends, bodies], [[a.bytes.length, bytes.length], [a.body, b.body]], `input ${i}`);
  }
});
