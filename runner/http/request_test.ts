import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { buildPickTable, encodeRequest, RequestMix } from "./request.ts";
import { TemplateWriter } from "./template.ts";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("encodeRequest writes exact GET bytes with Host and User-Agent", () => {
  const r = encodeRequest("127.0.0.1:8080", { method: "GET", path: "/json?x=1", headers: [], weight: 1 });
  assertEquals(
    decode(r.bytes),
    "GET /json?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: loadlab\r\n\r\n",
  );
  assertEquals(r.isHead, false);
});

Deno.test("encodeRequest adds Content-Length for a body and keeps user headers", () => {
  const body = new TextEncoder().encode('{"a":1}');
  const r = encodeRequest("localhost", {
    method: "POST",
    path: "/user",
    headers: [["Content-Type", "application/json"], ["user-agent", "me"]],
    body,
    weight: 1,
  });
  assertEquals(
    decode(r.bytes),
    "POST /user HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nuser-agent: me\r\n" +
      'Content-Length: 7\r\n\r\n{"a":1}',
  );
});

Deno.test("encodeRequest: POST without body says Content-Length: 0, HEAD is flagged", () => {
  const post = encodeRequest("h", { method: "POST", path: "/", headers: [], weight: 1 });
  assertEquals(decode(post.bytes).includes("Content-Length: 0\r\n"), true);
  const head = encodeRequest("h", { method: "HEAD", path: "/", headers: [["Host", "x"]], weight: 1 });
  assertEquals(decode(head.bytes), "HEAD / HTTP/1.1\r\nUser-Agent: loadlab\r\nHost: x\r\n\r\n");
  assertEquals(head.isHead, true);
});

Deno.test("buildPickTable honours weights exactly and spreads picks", () => {
  const table = buildPickTable([3, 1]);
  assertEquals(Array.from(table).filter((i) => i === 0).length, 3);
  assertEquals(table.length, 4);
  const t2 = Array.from(buildPickTable([1, 1, 2]));
  assertEquals(t2.length, 4);
  // The heavy entry never appears twice in a row within the cycle.
  for (let k = 1; k < t2.length; k++) assertEquals(t2[k] === 2 && t2[k - 1] === 2, false);
});

Deno.test("buildPickTable: weights far apart (1e308 beside 5e-324) make a full table, none dropped", () => {
  // Their ratio overflowed to Infinity: the table came out empty, and a load worker picking a flow from
  // it failed with "Cannot read properties of undefined".
  for (const weights of [[1e308, 1e308, 5e-324], [Number.MAX_VALUE, 1], [1e300, 1e-300, 1]]) {
    const table = Array.from(buildPickTable(weights));
    ok(table.length > 0 && table.length <= 1_000 + weights.length, `${weights}: ${table.length}`);
    for (let i = 0; i < weights.length; i++) ok(table.includes(i), `${weights}: ${i} is picked`);
  }
  const even = Array.from(buildPickTable([1e308, 1e308, 5e-324]));
  assertEquals(even.filter((i) => i === 0).length, even.filter((i) => i === 1).length);
});

Deno.test("RequestMix uses the URL path for '/' specs and cycles", () => {
  const mix = new RequestMix(new URL("http://127.0.0.1:9/base?q=1"), [
    { method: "GET", path: "/", headers: [], weight: 1 },
    { method: "GET", path: "/other", headers: [], weight: 1 },
  ]);
  assertEquals(decode(mix.requests[0].bytes).startsWith("GET /base?q=1 HTTP/1.1"), true);
  const seen = [mix.next(), mix.next(), mix.next()];
  assertEquals(seen, [0, 1, 0]);
});

Deno.test("a filled value: path and query percent-encoded (raw as is), a line break in a header or the path refused", () => {
  const spec = {
    method: "GET",
    path: "/u/{{ a }}?q={{ a }}&r={{ a | raw }}",
    headers: [["X-A", "v={{ a }}"]] as [string, string][],
    weight: 1,
  };
  const r = encodeRequest("h", spec, ["a"]);
  const writer = new TemplateWriter();
  const filled = writer.fill(r.template!, [new TextEncoder().encode("x/y z&%")], null);
  assertEquals(
    decode(filled!),
    "GET /u/x/y%20z&%25?q=x%2Fy%20z%26%25&r=x/y z&% HTTP/1.1\r\nHost: h\r\nUser-Agent: loadlab\r\nX-A: v=x/y z&%\r\n\r\n",
  );
  for (const [value, where] of [["a\r\nB: 1", "the path"], ["a\0", "the path"]]) {
    assertEquals(writer.fill(r.template!, [new TextEncoder().encode(value)], null), null);
    assertEquals(writer.refused, `{{ a }} in ${where} holds CR, LF or NUL: not sent`);
  }
  const header = encodeRequest("h", { ...spec, path: "/" }, ["a"]);
  assertEquals(writer.fill(header.template!, [new TextEncoder().encode("a\nB: 1")], null), null);
  assertEquals(writer.refused, '{{ a }} in header "X-A" holds CR, LF or NUL: not sent');
});

Deno.test("a body its values would fill past 16 MiB is refused before any buffer grows; 16 MiB is sent", () => {
  const spec = {
    method: "POST",
    path: "/",
    headers: [],
    body: new TextEncoder().encode("{{ c }}".repeat(17)),
    weight: 1,
  };
  const r = encodeRequest("h", spec as never, ["c"]);
  const writer = new TemplateWriter();
  const mib = new Uint8Array(2 ** 20).fill(120);
  assertEquals(writer.fill(r.template!, [mib], null), null);
  assertEquals(
    writer.refused,
    "the body its values fill is up to 17 MiB, past the 16 MiB a request's body may be: not sent " +
      "(send a smaller capture or value)",
  );
  const sixteen = encodeRequest(
    "h",
    { ...spec, body: new TextEncoder().encode("{{ c }}".repeat(16)) } as never,
    [
      "c",
    ],
  );
  const filled = writer.fill(sixteen.template!, [mib], null)!;
  ok(decode(filled.subarray(0, 80)).includes("Content-Length: 16777216"));
});
