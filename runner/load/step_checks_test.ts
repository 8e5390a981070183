import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { KeptResponse } from "../http/kept_response.ts";
import { checkName, checkPasses, compileCheck, compileExtract, runExtract } from "./step_checks.ts";
import { parseJsonPath } from "../json_path.ts";

const raw = (text: string) => new TextEncoder().encode(text);

Deno.test("JSON paths: the subset read, anything else refused with where it stopped", () => {
  assertEquals(parseJsonPath("$.a.b[0][\"c d\"]['e']"), ["a", "b", 0, "c d", "e"]);
  assertEquals(parseJsonPath("$"), []);
  throws(() => parseJsonPath("$..a"), /at "\.\.a"/);
  throws(() => parseJsonPath("$.a[*]"), /at "\[\*\]"/);
});

Deno.test("a chunked response after a 100 Continue: status, headers and body read; captures and checks run", () => {
  const response = new KeptResponse(raw(
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nX-Id: 9\r\n" +
      'Set-Cookie: a=1\r\nset-cookie: b=2\r\n\r\n5;ext=1\r\n{"ok"\r\nc\r\n:true,"n":7}\r\n0\r\n\r\n',
  ));
  assertEquals([response.status, response.headers("set-cookie"), response.body], [
    201,
    ["a=1", "b=2"],
    '{"ok":true,"n":7}',
  ]);
  const names = ["n", "id", "word"];
  const extract = compileExtract(
    [{ json: "$.n", as: "n" }, { header: "x-id", as: "id" }, { regexp: '"(o)k"', as: "word" }],
    [{ status: 201 }, { json: "$.ok", equals: true }, { json: "$.missing", exists: false }, {
      contains: "nope",
    }],
    (name) => names.indexOf(name),
  );
  const values: Uint8Array[] = [];
  const [passed, failed] = [new Uint32Array(4), new Uint32Array(4)];
  assertEquals(runExtract(extract, response, values, { passed, failed }, { bytes: 0 }), null);
  assertEquals(values.map((v) => new TextDecoder().decode(v)), ["7", "9", "o"]);
  assertEquals([[...passed], [...failed]], [[1, 1, 1, 0], [0, 0, 0, 1]]);
  const missing = compileExtract([{ header: "location", as: "id" }], [], (name) => names.indexOf(name));
  assertEquals(runExtract(missing, response, values, { passed, failed }, { bytes: 0 }), {
    kind: "missed",
    as: "id",
  });
});

Deno.test("a regexp check passes when it finds a match; a rule-less match (a ws step's `{}`) passes anything", () => {
  const body = { status: 0, headers: () => [], body: '{"n":42}' };
  const none = (_: string) => -1;
  assertEquals(checkName({ regexp: '"n":\\d+' }), 'matches /"n":\\d+/');
  assertEquals(checkPasses(compileCheck({ regexp: '"n":\\d+' }, none), body, []), true);
  assertEquals(checkPasses(compileCheck({ regexp: "^x" }, none), body, []), false);
  assertEquals(checkPasses(compileCheck({}, none), body, []), true);
  assertEquals(checkPasses(compileCheck({}, none), { ...body, body: "not json" }, []), true);
});

Deno.test("a session's captures keep at most 16 MiB in all: a capture past it is not kept; one name again replaces", () => {
  const body = "a".repeat(1024 * 1024);
  const response = { status: 200, body, headers: () => [] };
  const names = Array.from({ length: 20 }, (_, i) => `c${i}`);
  const counters = { passed: new Uint32Array(0), failed: new Uint32Array(0) };
  const captureAs = (name: string) =>
    compileExtract([{ regexp: "(a+)", as: name }], [], (n) => names.indexOf(n));
  // The same name again and again: each replaces the last, the session keeps one.
  const values: Uint8Array[] = [];
  const kept = { bytes: 0 };
  for (let i = 0; i < 40; i++) {
    assertEquals(runExtract(captureAs("c0"), response, values, counters, kept), null);
  }
  assertEquals(kept.bytes, body.length);
  // Sixteen names fill the session's 16 MiB; the seventeenth is refused with the sizes named, not kept.
  for (let i = 1; i < 16; i++) {
    assertEquals(runExtract(captureAs(`c${i}`), response, values, counters, kept), null);
  }
  const miss = runExtract(captureAs("c16"), response, values, counters, kept);
  assertEquals(miss, {
    kind: "too-big",
    message: 'capture "c16" would keep the session\'s captures at 17825792 bytes, past the 16777216 a ' +
      "session keeps: capture a part (a regexp's group, a JSON field)",
  });
  assertEquals([values[16], kept.bytes], [undefined, 16 * body.length]);
});
