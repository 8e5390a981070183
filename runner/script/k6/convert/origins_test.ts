/** The origins a k6 script's URLs name with its environment, read from its text. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mayRequest, namesNoServer, scriptOrigins } from "./origins.ts";
import { parseOrNull } from "./refusals.ts";

const of = (source: string, env: Record<string, string> = {}) =>
  scriptOrigins(parseOrNull(source), env).map((o) => `${o.origin}${o.literal ? "" : " (env)"}`);

Deno.test("a variable's origin when it is set, the fallback's only when it is not", () => {
  const source = 'const BASE = __ENV.BASE_URL || "http://127.0.0.1:8080";\nhttp.get(`${BASE}/json`);';
  assertEquals(of(source, { BASE_URL: "http://127.0.0.1:9000" }), ["http://127.0.0.1:9000 (env)"]);
  assertEquals(of(source), ["http://127.0.0.1:8080"]);
  assertEquals(of(source, { BASE_URL: "" }), ["http://127.0.0.1:8080"]);
  assertEquals(of('const B = __ENV["B"] ?? "http://a.test";', { B: "http://b.test" }), [
    "http://b.test (env)",
  ]);
});

Deno.test("templates and literals in the order the text names them; imports and other strings left out", () => {
  const source = `import u from "https://jslib.k6.io/k6-utils/1.5.0/index.js";
http.get(\`\${__ENV.BASE}/json\`);
http.get("https://test.k6.io/x?y=1");
ws.connect("wss://echo.test/socket");
http.get(\`http://\${__ENV.HOST}:8080/\`);
check(r, { "not a URL": (r) => r.body.includes("http") });`;
  assertEquals(of(source, { BASE: "http://127.0.0.1:9000", HOST: "10.0.0.1" }), [
    "http://127.0.0.1:9000 (env)",
    "https://test.k6.io",
    "https://echo.test",
    "http://10.0.0.1:8080 (env)",
  ]);
  assertEquals(of("http.get(`${__ENV.BASE}/json`);"), []);
});

Deno.test("a gRPC script's server addresses: http: with plaintext, else https: (k6's TLS by default)", () => {
  const source = `import grpc from "k6/net/grpc";
const GRPC_ADDR = __ENV.GRPC_ADDR || "127.0.0.1:10000";
client.connect(GRPC_ADDR, { plaintext: true });
const times = "10:30";`;
  assertEquals(of(source), ["http://127.0.0.1:10000"]);
  assertEquals(of(source, { GRPC_ADDR: "localhost:9000" }), ["http://localhost:9000 (env)"]);
  assertEquals(of(source.replace("plaintext: true", "reflect: true")), ["https://127.0.0.1:10000"]);
  // Without k6/net/grpc, a host:port is no server of the script's.
  assertEquals(of(source.replace('import grpc from "k6/net/grpc";', "")), []);
});

Deno.test("whether a script may send requests: k6/http, k6/ws, k6/net/grpc or a remote module", () => {
  assertEquals(
    mayRequest(parseOrNull('import { check } from "k6";\nimport encoding from "k6/encoding";')),
    false,
  );
  assertEquals(mayRequest(parseOrNull('import http from "k6/http";')), true);
  assertEquals(mayRequest(parseOrNull('import { Client } from "k6/net/grpc";')), true);
  assertEquals(
    mayRequest(parseOrNull('import { Httpx } from "https://jslib.k6.io/httpx/0.1.0/index.js";')),
    true,
  );
  // Unparsable: as if it may (the refusal names what to give).
  assertEquals(mayRequest(parseOrNull("export default function () {{")), true);
});

Deno.test("a script names no server when each k6/http call's URL is text without an http(s) scheme", () => {
  const script = (body: string, from = `import http from "k6/http";`) => `${from}\nconst E = "";\n${body}\n`;
  const cases: Array<[string, boolean]> = [
    [script(`http.get(""); http.post(E, "x"); http.request("GET", "api.local/x");`), true],
    [script(`export default () => {};`), true],
    [script(`http.get(__ENV.MISSING);`), false],
    [script(`http.get("/path");`), false],
    [script(`http.get("http://api.local/");`), false],
    [script("http.get(http.url`${E}/x`);"), false],
    [script(`let u = ""; http.get(u);`), false],
    // A named import is read as one that may send (refused before the load, asking for the URL).
    [script(`get("");`, `import { get } from "k6/http";`), false],
    [script(`http.get(""); ws.connect("");`, `import http from "k6/http";\nimport ws from "k6/ws";`), false],
  ];
  for (const [source, none] of cases) assertEquals(namesNoServer(parseOrNull(source), {}), none, source);
});
