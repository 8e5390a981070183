import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { endpointTable } from "./endpoint_table.ts";
import { MAX_ENDPOINTS, OTHER_ENDPOINT } from "./endpoint_limits.ts";
import { requestSpec } from "../tests/fixtures/request_spec.ts";

const URL_ = "http://127.0.0.1:9/base";
/** Names given to more than one different request, whose numbers pool. */
const pooled = (t: ReturnType<typeof endpointTable>) =>
  t.endpoints.filter((e) => e.requests > 1 && e.name !== OTHER_ENDPOINT).map((e) => e.name);

Deno.test("each request is named by its method and path as written; name: sets it; tags are kept", () => {
  const t = endpointTable({
    url: URL_,
    requestMix: [
      requestSpec({ path: "/items/{{ id }}" }),
      requestSpec({ method: "POST", path: "/login", name: "login", tags: { tier: "auth" } }),
      requestSpec({ path: "/" }),
    ],
  });
  assertEquals(t.endpoints.map((e) => [e.name, e.method, e.tags]), [
    ["GET /items/{{ id }}", "GET", {}],
    ["login", "POST", { tier: "auth" }],
    // "/" is the URL's own path, as it is sent.
    ["GET /base", "GET", {}],
  ]);
  assertEquals(t.mix, [0, 1, 2]);
  assertEquals(pooled(t), []);
});

Deno.test("one name given to two different requests pools them, and the table says so once", () => {
  const t = endpointTable({
    url: URL_,
    requestMix: [
      requestSpec({ path: "/a", name: "read" }),
      requestSpec({ path: "/b", name: "read" }),
      requestSpec({ path: "/a", name: "read", weight: 3 }),
    ],
  });
  assertEquals(t.mix, [0, 0, 0]);
  assertEquals(t.endpoints[0].requests, 2);
  assertEquals(pooled(t), ["read"]);
});

Deno.test("flows: each request step by its request name, else its label, else method and path", () => {
  const t = endpointTable({
    url: URL_,
    requestMix: [requestSpec()],
    flows: [{
      name: "shop",
      weight: 1,
      steps: [
        { request: requestSpec({ path: "/cart" }) },
        { thinkMs: 10 },
        { request: requestSpec({ path: "/pay" }), label: "pay" },
        { request: requestSpec({ path: "/x", name: "named" }), label: "ignored" },
      ],
    }],
  });
  assertEquals(t.endpoints.map((e) => e.name), ["GET /cart", "pay", "named"]);
  assertEquals(t.flows, [[0, 1, 2]]);
});

Deno.test(`past ${MAX_ENDPOINTS} distinct names, the rest count under "${OTHER_ENDPOINT}"`, () => {
  const requestMix = Array.from({ length: MAX_ENDPOINTS + 5 }, (_, k) => requestSpec({ path: `/p${k}` }));
  const t = endpointTable({ url: URL_, requestMix });
  assertEquals(t.endpoints.length, MAX_ENDPOINTS + 1);
  assertEquals(t.endpoints[MAX_ENDPOINTS].name, OTHER_ENDPOINT);
  assertEquals(t.mix.slice(MAX_ENDPOINTS), [
    MAX_ENDPOINTS,
    MAX_ENDPOINTS,
    MAX_ENDPOINTS,
    MAX_ENDPOINTS,
    MAX_ENDPOINTS,
  ]);
  assertEquals(pooled(t), []);
});
