/**
 * Templated HTTP/2 requests decoded by loadlab's own HPACK decoder: the filled fields in order with the
 * fixed ones, content-length from the filled body, literals that never touch the dynamic table, values
 * past 126 bytes (a longer length prefix) and past 16 KiB (CONTINUATION frames), one writer reused
 * for rows of different lengths without a new view per request, and a flow step's `cookie` field.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { encodeH2Request, writeHeadersFrames } from "./request.ts";
import { H2TemplateWriter } from "./template.ts";
import { HpackDecoder } from "../../../http2/hpack/decoder.ts";
import {
  CONTINUATION,
  FLAG_END_HEADERS,
  FLAG_END_STREAM,
  frameFlags,
  frameLength,
  frameStreamId,
  frameType,
  HEADERS,
} from "../../../http2/frames.ts";
import { requestSpec } from "../../../tests/fixtures/request_spec.ts";

const enc = new TextEncoder();
const row = (...values: string[]) => values.map((v) => enc.encode(v));

/** Frame types and flags, and the fields of the joined header block (the decoder's table size after). */
function decode(frames: Uint8Array, decoder = new HpackDecoder(4096, 1 << 20)) {
  const block: number[] = [];
  const kinds: Array<[number, number]> = [];
  for (let p = 0; p < frames.length; p += 9 + frameLength(frames, p)) {
    kinds.push([frameType(frames, p), frameFlags(frames, p)]);
    block.push(...frames.subarray(p + 9, p + 9 + frameLength(frames, p)));
  }
  const fields: Array<[string, string]> = [];
  decoder.decodeStatus(Uint8Array.from(block), 0, block.length, (name, value) => fields.push([name, value]));
  return { kinds, fields, tableBytes: decoder.tableSizeBytes };
}

const url = new URL("https://api.test/");
const names = ["id", "name"];

Deno.test("h2 template: filled path, header and body; fixed fields as encoded; content-length from the body", () => {
  const r = encodeH2Request(
    url,
    requestSpec({
      method: "POST",
      path: "/u/{{ id }}",
      headers: [["X-User", "{{name}}"], ["Accept", "*/*"]],
      body: enc.encode('{"id":{{ id }}}'),
    }),
    names,
  );
  assertEquals([r.frames.length, r.body], [0, null]);
  const writer = new H2TemplateWriter();
  const decoder = new HpackDecoder(4096, 1 << 20);
  for (const [id, name] of [["7", "ada"], ["12345", "bob"], ["1", "eve"]]) {
    const filled = writer.fill(r.template!, row(id, name))!;
    const out = new Uint8Array(filled.frames.length);
    writeHeadersFrames(out, 0, filled, 5);
    assertEquals(frameStreamId(out, 0), 5);
    const body = `{"id":${id}}`;
    assertEquals(decode(out, decoder), {
      kinds: [[HEADERS, FLAG_END_HEADERS]],
      fields: [
        [":method", "POST"],
        [":scheme", "https"],
        [":authority", "api.test"],
        [":path", `/u/${id}`],
        ["x-user", name],
        ["accept", "*/*"],
        ["user-agent", "loadlab"],
        ["content-length", String(enc.encode(body).length)],
      ],
      tableBytes: 0,
    });
    assertEquals(new TextDecoder().decode(filled.body!), body);
  }
});

Deno.test("h2 template: a GET ends the stream on HEADERS; long values take longer prefixes and CONTINUATION", () => {
  const r = encodeH2Request(url, requestSpec({ headers: [["x-v", "<{{ name }}>"]], path: "/{{id}}" }), names);
  const writer = new H2TemplateWriter();
  for (const size of [1, 124, 125, 126, 127, 300, 20_000, 40_000, 3]) {
    const value = "v".repeat(size);
    const filled = writer.fill(r.template!, row(String(size), value))!;
    assertEquals(filled.body, null);
    const { kinds, fields } = decode(filled.frames);
    const frames = Math.ceil((filled.frames.length - 9) / (16384 + 9));
    assertEquals(kinds.length, frames);
    assertEquals(kinds[0], [HEADERS, frames === 1 ? FLAG_END_HEADERS | FLAG_END_STREAM : FLAG_END_STREAM]);
    if (frames > 1) assertEquals(kinds.at(-1), [CONTINUATION, FLAG_END_HEADERS]);
    assertEquals(fields.find(([n]) => n === "x-v"), ["x-v", `<${value}>`]);
    assertEquals(fields.find(([n]) => n === ":path"), [":path", `/${size}`]);
    assertEquals(fields.some(([n]) => n === "content-length"), false);
    assertEquals(filled.frameStarts.length, frames);
  }
});

Deno.test("h2 template: a templated Host is the :authority; a POST with an empty filled body says 0", () => {
  const r = encodeH2Request(
    url,
    requestSpec({ method: "POST", headers: [["Host", "{{ name }}.test"]], body: enc.encode("{{ id }}") }),
    names,
  );
  const filled = new H2TemplateWriter().fill(r.template!, row("", "eu"))!;
  assertEquals(filled.body, null);
  const { kinds, fields } = decode(filled.frames);
  assertEquals(kinds, [[HEADERS, FLAG_END_HEADERS | FLAG_END_STREAM]]);
  assertEquals(fields.find(([n]) => n === ":authority"), [":authority", "eu.test"]);
  assertEquals(fields.at(-1), ["content-length", "0"]);
});

Deno.test("h2 template: rows of lengths seen before reuse their views (nothing allocated per request)", () => {
  const r = encodeH2Request(
    url,
    requestSpec({ method: "PUT", path: "/{{ id }}", body: enc.encode("{{ name }}") }),
    names,
  );
  const writer = new H2TemplateWriter();
  const seen = ["1", "22", "333"].map((id) => {
    const filled = writer.fill(r.template!, row(id, id + id))!;
    return [filled.frames, filled.body];
  });
  ["1", "22", "333", "1"].forEach((id, k) => {
    const filled = writer.fill(r.template!, row(id, id + id))!;
    ok(filled.frames === seen[k % 3][0] && filled.body === seen[k % 3][1], `row ${id}: new views`);
    assertEquals(decode(filled.frames).fields.slice(3), [
      [":path", `/${id}`],
      ["user-agent", "loadlab"],
      ["content-length", String(2 * id.length)],
    ]);
  });
});

Deno.test("h2 template: a flow step with cookies is a template without placeholders; its cookie field joins per fill", () => {
  const r = encodeH2Request(url, requestSpec({ method: "POST", path: "/me" }), [], true);
  ok(r.template !== null);
  const writer = new H2TemplateWriter();
  const long = "s=" + "v".repeat(300);
  for (const cookie of ["a=1; b=2", long, null]) {
    const filled = writer.fill(r.template, [], cookie === null ? null : enc.encode(cookie))!;
    const { fields, tableBytes } = decode(filled.frames);
    assertEquals(fields.filter(([n]) => n === "cookie" || n === "content-length" || n === ":path"), [
      [":path", "/me"],
      ...(cookie === null ? [] : [["cookie", cookie] as [string, string]]),
      ["content-length", "0"],
    ]);
    assertEquals(tableBytes, 0);
  }
});

Deno.test("a filled field with a line break, or a space at an end, is refused; :path is percent-encoded", () => {
  const r = encodeH2Request(
    new URL("http://h/"),
    requestSpec({ path: "/u/{{ a }}", headers: [["authorization", "Bearer {{ a }}"]] }),
    ["a"],
  );
  const writer = new H2TemplateWriter();
  const filled = writer.fill(r.template!, row("x y"))!;
  const { fields } = decode(filled.frames);
  ok(fields.some(([n, v]) => n === ":path" && v === "/u/x%20y"), JSON.stringify(fields));
  ok(fields.some(([n, v]) => n === "authorization" && v === "Bearer x y"), JSON.stringify(fields));
  assertEquals(writer.fill(r.template!, row("t\r\nx-injected: 1")), null);
  assertEquals(writer.refused, "{{ a }} in the path holds CR, LF or NUL: not sent");
  assertEquals(writer.fill(r.template!, row("t ")), null);
  assertEquals(
    writer.refused,
    'header "authorization" as filled starts or ends with a space or tab: not sent',
  );
});

Deno.test("h2 template: a body its values would fill past 16 MiB is refused as a bad value, nothing sent", () => {
  const r = encodeH2Request(
    url,
    requestSpec({ method: "POST", body: enc.encode("{{ id }}".repeat(17)) }),
    names,
  );
  const writer = new H2TemplateWriter();
  const mib = "x".repeat(2 ** 20);
  assertEquals(writer.fill(r.template!, row(mib, "ada")), null);
  assertEquals([writer.refusedKind, writer.refused.startsWith("the body its values fill is up to 17 MiB")], [
    "bad-value",
    true,
  ]);
});

Deno.test("h2 template: a body without placeholders beside a templated header is sent byte for byte", () => {
  // A gzip-compressed gRPC message: bytes that are no UTF-8.
  const body = Uint8Array.from([1, 0, 0, 0, 4, 0x1f, 0x8b, 0xff, 0x80]);
  const r = encodeH2Request(url, requestSpec({ method: "POST", headers: [["x-id", "{{id}}"]], body }), names);
  const filled = new H2TemplateWriter().fill(r.template!, row("7", "ada"))!;
  assertEquals([...filled.body!], [...body]);
});
