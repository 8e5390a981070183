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
  assertEquals(runExtract(extract, response, values, passed, failed), null);
  assertEquals(values.map((v) => new TextDecoder().decode(v)), ["7", "9", "o"]);
  assertEquals([[...passed], [...failed]], [[1, 1, 1, 0], [0, 0, 0, 1]]);
  const missing = compileExtract([{ header: "location", as: "id" }], [], (name) => names.indexOf(name));
  assertEquals(runExtract(missing, response, values, passed, failed), "id");
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
