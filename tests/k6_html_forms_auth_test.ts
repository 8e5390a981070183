/**
 * k6 scripts' HTML selections, cookie jars, file uploads and authentication end to end: `loadlab run` of a
 * k6 script against a local server that serves a page, echoes cookies and bodies (a multipart body's
 * files by name, type and content), sets a cookie, and answers Digest (bench/httpbin_digest.ts, httpbin's
 * challenge) and Basic authentication. Every check of the two iterations must pass. An `auth` k6 has
 * and loadlab does not is refused before anything is sent.
 */
import { parseHTML } from "../runner/script/k6/html.ts";
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { digestAuthResponse } from "../bench/httpbin_digest.ts";
import { request } from "../runner/script/k6/http.ts";
import { convertK6 } from "../runner/script/k6/convert/convert.ts";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

const fixture = new URL("./fixtures/k6/html_forms_auth.js", import.meta.url).pathname;
const PAGE = "<html><head><title>Shop</title></head><body><a href='/cart'>Cart</a><a href='/shop'>Shop</a>" +
  "<ul><li>a</li><li>b</li><li>c</li></ul></body></html>";

/** The test's server: each path answered as the fixture expects. */
async function answer(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const cookies = Object.fromEntries(
    (req.headers.get("cookie") ?? "").split("; ").filter((c) => c !== "").map((c) => c.split("=")),
  );
  if (url.pathname === "/page") return new Response(PAGE, { headers: { "content-type": "text/html" } });
  if (url.pathname === "/cookies") return Response.json({ cookies, line: req.headers.get("cookie") });
  if (url.pathname === "/hop") return new Response(null, { status: 302, headers: { location: "/cookies" } });
  if (url.pathname === "/set") {
    const headers = new Headers();
    for (const [k, v] of url.searchParams) headers.append("set-cookie", `${k}=${v}; Path=/`);
    return new Response("set", { headers });
  }
  if (url.pathname === "/post") return Response.json(await echoBody(req));
  if (url.pathname === "/basic-auth/user/passwd") {
    return new Response(null, {
      status: req.headers.get("authorization") === `Basic ${btoa("user:passwd")}` ? 200 : 401,
    });
  }
  return digestAuthResponse(req, url.pathname) ?? new Response(null, { status: 404 });
}

async function echoBody(req: Request) {
  if (!req.headers.get("content-type")?.startsWith("multipart/form-data; boundary=")) {
    return { data: await req.text() };
  }
  const form: Record<string, string> = {}, files: Record<string, string> = {};
  for (const [k, v] of await req.formData()) {
    if (typeof v === "string") form[k] = v;
    else files[k] = `${v.name} ${v.type} ${await v.text()}`;
  }
  return { form, files };
}

Deno.test("k6 res.html, cookie jars, http.file uploads, Digest and Basic auth run against a local server", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, answer);
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-html-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "run", fixture]
        .concat(["--target", `app=http://127.0.0.1:${server.addr.port}`, "--out-dir", "out"]),
      cwd: dir,
      env: { XDG_CACHE_HOME: `${dir}/cache`, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, text);
    const results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
    const checks = results.runs[0].flows[0].steps.flatMap((s: { checks?: object[] }) => s.checks ?? []);
    const counts = checks.map((
      c: { name: string; passed: number; failed: number },
    ) => [c.name, c.passed, c.failed]);
    assertEquals(counts.length, 17, JSON.stringify(counts));
    for (const [name, passed, failed] of counts) assertEquals([name, passed, failed], [name, 2, 0]);
    // The Digest request is sent twice per iteration (challenged, then answered), a redirect two: 13 + 1.
    assertEquals(results.runs[0].requests, 28, JSON.stringify(results.runs[0].endpoints));
  } finally {
    await server.shutdown();
  }
});

Deno.test("k6 params.auth other than basic and digest is refused before anything is sent", async () => {
  await rejects(
    request("GET", "http://127.0.0.1:9/", null, { auth: "ntlm" }),
    /params.auth: ntlm is not supported by loadlab's k6 runtime \(basic, digest\)/,
  );
});

Deno.test("k6 conversion loads the HTML parser only for a script that calls .html(", () => {
  const parser = `/runner/script/k6/html.ts"`;
  const uses = convertK6(
    `import http from "k6/http";\nexport default function () { http.get("/").html("a"); }`,
    "a.js",
    ".",
  );
  const not = convertK6(
    `import http from "k6/http";\nexport default function () { http.get("/"); }`,
    "b.js",
    ".",
  );
  assertEquals([uses.code.includes(parser), not.code.includes(parser)], [true, false]);
});

Deno.test("k6/html's data() reads data- attributes as k6 does: numbers and JSON typed, all by camelCase", () => {
  const doc = parseHTML(`<a data-id="2" data-user-name="ann" data-flags='{"x":1}'>x</a>`);
  const a = doc.find("a");
  assertEquals([a.data("id"), a.data("user-name"), a.data("flags"), a.data("none")], [
    2,
    "ann",
    { x: 1 },
    undefined,
  ]);
  assertEquals(a.data(), { id: 2, userName: "ann", flags: { x: 1 } });
  assertEquals(doc.find("p").data("id"), undefined);
});

Deno.test("k6's res.clickLink and res.submitForm send what k6 v1.8.1 sends, awaited as requests", () =>
  withTarget(async (url) => {
    const page = `<a href="/json">n</a><form action="/echo" method="post"><input name="user" value="ann">
<input type="hidden" name="csrf" value="t"><input type="checkbox" name="bare" checked>
<input type="checkbox" name="on" checked="checked"><input type="submit" name="go" value="Go"></form>
<form id="q" action="/json"><input name="q" value="k6"></form>`;
    const run = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { checks: ["rate==1"], http_reqs: ["count==8"] } };
const PAGE = ${JSON.stringify(page)};
export default function () {
  const res = http.post("${url}/echo", PAGE, { headers: { "Content-Type": "text/html" } });
  const link = res.clickLink();
  const sent = res.submitForm({ fields: { user: "bob", extra: "1" } });
  const query = res.submitForm({ formSelector: "#q", fields: { q: "load" } });
  check(null, {
    link: () => link.url === "${url}/json" && link.status === 200,
    form: () => sent.body === "csrf=t&extra=1&go=Go&on=on&user=bob",
    query: () => query.url === "${url}/json?q=load" && query.request.method === "GET",
  });
}
`,
      null,
    );
    assertEquals(run.code, 0, run.text);
  }));
