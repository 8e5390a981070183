/**
 * k6/http's request forms on loadlab's engine, against an echo server that answers with what it got:
 * redirects followed (and kept with `redirects: 0`), Basic authorization from a URL's credentials, an
 * object body sent as a form, null params, `http.batch` by key, `http.url` naming requests by their
 * template, `responseType: "none"`, a response's cookies with their attributes, a JSON path's escaped dot,
 * a gzip body sent and one read. Each is a named check of the fixture; all must pass.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";

async function echo(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/redirect") {
    return new Response(null, { status: 302, headers: { location: "/echo" } });
  }
  if (url.pathname === "/cookie") {
    const out = new Headers({ "set-cookie": "a=1; Path=/p; Domain=api.example; Max-Age=60; HttpOnly" });
    out.append("set-cookie", "b=2; secure; max-age=0");
    return Response.json({ "dotted.key": { "#": 5 } }, { headers: out });
  }
  if (url.pathname === "/nocontent") return new Response(null, { status: 204 });
  if (url.pathname === "/gz") {
    const body = new Blob(['{"z":1}']).stream().pipeThrough(new CompressionStream("gzip"));
    return new Response(body, { headers: { "content-encoding": "gzip" } });
  }
  const headers = Object.fromEntries(req.headers);
  return Response.json({
    method: req.method,
    path: url.pathname + url.search,
    headers,
    body: await req.text(),
  });
}

Deno.test("k6/http's request forms: redirects, Basic auth, forms, batch, http.url", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, echo);
  try {
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.addr.port}`,
      model: "count",
      requests: 2,
      connections: 1,
      intervalMs: 100,
      script: {
        path: sessionScriptPath(new URL("./fixtures/k6/http_api.js", import.meta.url).pathname),
        routes: { "http://api.example": `http://127.0.0.1:${server.addr.port}` },
      },
    }));
    assertEquals(run.errorMessages ?? {}, {});
    const flow = run.flows![0];
    const checks = flow.steps.flatMap((s) => s.checks ?? []).map((c) => [c.name, c.passed, c.failed]);
    assertEquals(checks.sort(), [
      ["basic auth", 2, 0],
      ["batch by key", 2, 0],
      ["compressed body", 2, 0],
      ["cookie attributes", 2, 0],
      ["digest twice", 2, 0],
      ["escaped dot", 2, 0],
      ["fields as k6's", 2, 0],
      ["fields listed", 2, 0],
      ["form body", 2, 0],
      ["form type", 2, 0],
      ["gzip answer decoded", 2, 0],
      ["header values as text", 2, 0],
      ["method as spelled", 2, 0],
      ["no body", 2, 0],
      ["no content is null", 2, 0],
      ["redirect followed", 2, 0],
      ["redirect kept", 2, 0],
      ["request as sent", 2, 0],
    ]);
    const names = flow.steps.map((s) => s.label).sort();
    assertEquals(names.includes("put") && names.includes("${}/echo?id=${}"), true, names.join(", "));
  } finally {
    await server.shutdown();
  }
});
