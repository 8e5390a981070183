/**
 * @module
 * k6 scripts nobody here wrote, run as they are: every `.js` of a folder (k6's repository `examples/`)
 * run by `loadlab run FILE --vus 1 --iterations 2`, the command a user runs, in a process of its own,
 * against a local server (in this process, loopback only: the public hosts the examples name sent to it
 * with `--target ORIGIN=URL`, a script's one other host with `--target app=URL`). k6's examples were
 * written against httpbin, so the
 * server answers httpbin's echo paths (`/get`, `/post`, ..., `/cookies`, `/redirect/N`, `/basic-auth/U/P`) as
 * httpbin does and everything else as the built-in target; a script of `k6/net/grpc` calls k6's own gRPC
 * example server instead (k6_grpc_server.ts, at `GRPC_ADDR`, over h2c). Each script ends as one of: runs (no
 * script error; its checks' pass count beside it), runs with script errors (the first message), refused (the
 * conversion's or the options' reason), does not load, or not a k6 script. The share that runs is
 * printed last.
 *
 *   deno run -A bench/k6_examples.ts FOLDER
 */
import { basename, join } from "node:path";
import { createTargetApp } from "../targets/app/app.ts";
import { importsK6Module, isK6File } from "../runner/script/k6/convert/converted_file.ts";
import { withK6GrpcServer } from "./k6_grpc_server.ts";
import { digestAuthResponse } from "./httpbin_digest.ts";

/** How one script ended. */
export interface ExampleOutcome {
  file: string;
  outcome: "runs" | "script errors" | "refused" | "does not load" | "not k6";
  detail: string;
}

/**
 * Where a script's requests go: its server's URL (a gRPC script's calls go over h2c, as loadlab run sends
 * them).
 */
interface ExampleTarget {
  url: string;
}

/** Where `loadlab run` is: the same command a user runs, so a script loads here exactly as there. */
const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Runs one script against `target` with `loadlab run`, two iterations of one VU. */
async function tryScript(path: string, target: ExampleTarget): Promise<ExampleOutcome> {
  const file = basename(path);
  if (!isK6File(path)) return { file, outcome: "not k6", detail: "imports no k6 module" };
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-example-" });
  try {
    const routes = PUBLIC_ORIGINS.flatMap((origin) => ["--target", `${origin}=${target.url}`]);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "run", path, "--target", `app=${target.url}`, ...routes, "--vus", "1"]
        .concat(["--iterations", "2", "--out-dir", dir]),
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(SCRIPT_TIMEOUT_MS),
    }).output();
    const said = new TextDecoder().decode(out.stderr).trim().split("\n").filter((l) => !l.includes("go to"));
    const last = (said.at(-1) ?? `exit ${out.code}`).replace(/^loadlab run: /, "");
    let run;
    try {
      run = JSON.parse(Deno.readTextFileSync(join(dir, "results.json"))).runs[0];
    } catch {
      // A construct loadlab does not run exits 107 as k6's init errors do: its words tell it apart.
      const refused = out.code === 2 || last.startsWith("cannot run this k6 script");
      return { file, outcome: refused ? "refused" : "does not load", detail: last };
    }
    const messages = Object.keys(run.errorMessages?.script ?? {});
    if (messages.length > 0) return { file, outcome: "script errors", detail: messages[0] };
    const checks: Array<{ passed: number; failed: number }> = (run.flows?.[0]?.steps ?? [])
      .flatMap((s: { checks?: unknown[] }) => s.checks ?? []);
    const passed = checks.reduce((a, c) => a + c.passed, 0),
      total = checks.reduce((a, c) => a + c.passed + c.failed, 0);
    return { file, outcome: "runs", detail: `${run.requests} requests, checks ${passed} of ${total} passed` };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** How long one script may take: its iterations, k6's 30 s graceful stop at most, and loadlab's start. */
const SCRIPT_TIMEOUT_MS = 120_000;

/** The public hosts k6's examples name: each sent to the local server (`--target ORIGIN=URL`). */
const PUBLIC_ORIGINS = ["http://httpbin.org", "https://httpbin.org", "https://quickpizza.grafana.com"];

/** A header name as httpbin spells it: each word's first letter upper case (`x-test` -> `X-Test`). */
function titleCase(name: string): string {
  return name.split("-").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("-");
}

/**
 * QuickPizza's API as grafana/quickpizza's k6/ scripts call it (bench/k6_public/): a pizza for any
 * restrictions, a CSRF cookie, a login token, a rating; other paths are not QuickPizza's.
 */
async function quickPizza(req: Request): Promise<Response | null> {
  const path = new URL(req.url).pathname;
  if (!path.startsWith("/api/") || req.method !== "POST") return null;
  await req.body?.cancel();
  if (path === "/api/csrf-token") {
    return new Response("", { headers: { "set-cookie": "csrf_token=k6csrf; Path=/" } });
  }
  if (path === "/api/users/token/login") return Response.json({ token: "QivfLrMEt7thtJLQ" });
  if (path === "/api/ratings") return Response.json({ id: 1, stars: 5, pizza_id: 7 }, { status: 201 });
  if (path === "/api/users") return Response.json({ username: "u" }, { status: 201 });
  if (path !== "/api/pizza") return null;
  const ingredients = [1, 2, 3, 4, 5].map((k) => ({ id: k, name: `topping ${k}`, caloriesPerSlice: 50 }));
  return Response.json({ pizza: { id: 7, name: "Bench Special", ingredients, tool: "Pizza cutter" } });
}

/**
 * test-api.k6.io's token login and a user's crocodiles, as bench/k6_verdicts/wild_croc_login_smoke.js calls
 * them: an access token for any login, one crocodile with it, 401 without.
 */
async function crocodiles(req: Request): Promise<Response | null> {
  const path = new URL(req.url).pathname;
  if (path === "/auth/token/login/" && req.method === "POST") {
    await req.body?.cancel();
    return Response.json({ refresh: "k6refresh", access: "k6access" });
  }
  if (path !== "/my/crocodiles/") return null;
  if (req.headers.get("authorization") !== "Bearer k6access") return Response.json({}, { status: 401 });
  return Response.json([{ id: 1, name: "Bert", sex: "M", date_of_birth: "2010-06-27", age: 16 }]);
}

/** httpbin's answer to its echo paths, or null for a path it does not have here. */
export async function httpbin(req: Request): Promise<Response | null> {
  const url = new URL(req.url);
  // httpbin names each header field in title case (`X-Test`), as scripts read them back.
  const headers = Object.fromEntries([...req.headers].map(([name, value]) => [titleCase(name), value]));
  const cookies = Object.fromEntries(
    (req.headers.get("cookie") ?? "").split(";").map((c) => c.trim().split("=")).filter((p) => p[0] !== ""),
  );
  const path = url.pathname;
  // echo.websocket.org (k6's ws example): a WebSocket at any path but the target's own sends every message
  // back.
  if (req.headers.get("upgrade")?.toLowerCase() === "websocket" && !path.startsWith("/ws/")) {
    const { socket, response } = Deno.upgradeWebSocket(req);
    // At /cookies it first sends the handshake's Cookie field, as httpbin's /cookies shows a request's.
    if (path === "/cookies") socket.onopen = () => socket.send(req.headers.get("cookie") ?? "");
    // "bye" has the server close it (4000), as a chat server ends a session.
    socket.onmessage = (e) => e.data === "bye" ? socket.close(4000, "bye") : socket.send(e.data);
    return response;
  }
  if (["/get", "/post", "/put", "/patch", "/delete"].includes(path)) {
    const multipart = req.headers.get("content-type")?.includes("multipart/form-data") ?? false;
    const data = multipart ? "" : await req.text();
    const fields = multipart ? await formFields(req) : { form: {}, files: {} };
    if (req.headers.get("content-type")?.includes("urlencoded")) {
      fields.form = formOf(new URLSearchParams(data));
    }
    let json = null;
    try {
      json = JSON.parse(data);
    } catch { /* not JSON */ }
    return Response.json({
      args: Object.fromEntries(url.searchParams),
      headers,
      data,
      form: fields.form,
      files: fields.files,
      json,
      url: req.url,
    });
  }
  if (path === "/cookies") return Response.json({ cookies });
  const digest = digestAuthResponse(req, path);
  if (digest !== null) return digest;
  const hops = /^\/redirect\/(\d+)$/.exec(path);
  if (hops) {
    const next = Number(hops[1]) <= 1 ? "/get" : `/redirect/${Number(hops[1]) - 1}`;
    return new Response(null, { status: 302, headers: { location: next } });
  }
  if (path === "/cookies/set") {
    const out = new Headers({ location: "/cookies" });
    for (const [k, v] of url.searchParams) out.append("set-cookie", `${k}=${v}; Path=/`);
    return new Response(null, { status: 302, headers: out });
  }
  const more = await httpbinMore(req, url, headers);
  if (more !== null) return more;
  const auth = /^\/basic-auth\/([^/]+)\/([^/]+)$/.exec(path);
  if (auth) {
    const ok = req.headers.get("authorization") === `Basic ${btoa(`${auth[1]}:${auth[2]}`)}`;
    return ok ? Response.json({ authenticated: true, user: auth[1] }) : new Response(null, { status: 401 });
  }
  return null;
}

/**
 * httpbin's other paths k6's documentation calls: `/status/CODE` (the first of a list), `/headers`,
 * `/anything/...` (the echo of any method), `/bytes/N` (N bytes: 0, 1, 2, ...), `/html` (a page with a
 * form and links), `/xml`, `/delay/S`, `/response-headers?K=V`, `/user-agent`, `/gzip`, `/base64/VALUE`.
 */
async function httpbinMore(
  req: Request,
  url: URL,
  headers: Record<string, string>,
): Promise<Response | null> {
  const path = url.pathname;
  const status = /^\/status\/(\d+)/.exec(path);
  if (status) return new Response(null, { status: Number(status[1]) });
  if (path === "/headers") return Response.json({ headers });
  if (path === "/user-agent") return Response.json({ "user-agent": req.headers.get("user-agent") });
  if (path === "/anything" || path.startsWith("/anything/")) {
    const data = await req.text();
    return Response.json({
      args: Object.fromEntries(url.searchParams),
      data,
      headers,
      method: req.method,
      url: req.url,
    });
  }
  const bytes = /^\/bytes\/(\d+)$/.exec(path);
  if (bytes) {
    const body = Uint8Array.from({ length: Math.min(Number(bytes[1]), 102400) }, (_, k) => k % 256);
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  }
  if (path === "/html") {
    return new Response(HTML_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
  }
  if (path === "/xml") {
    return new Response(
      '<?xml version="1.0"?><slideshow title="Sample"><slide><title>Wake up</title></slide></slideshow>',
      {
        headers: { "content-type": "application/xml" },
      },
    );
  }
  const delay = /^\/delay\/([\d.]+)$/.exec(path);
  if (delay) {
    await new Promise((r) => setTimeout(r, Math.min(Number(delay[1]), 10) * 1000));
    return Response.json({ args: Object.fromEntries(url.searchParams), headers, url: req.url });
  }
  if (path === "/response-headers") {
    const out = new Headers();
    for (const [k, v] of url.searchParams) out.append(k, v);
    return Response.json(Object.fromEntries(url.searchParams), { headers: out });
  }
  if (path === "/gzip") {
    const text = JSON.stringify({ gzipped: true, headers, method: req.method });
    const body = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")))
      .bytes();
    return new Response(body, {
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
  }
  const b64 = /^\/base64\/(.+)$/.exec(path);
  if (b64) return new Response(atob(b64[1].replaceAll("-", "+").replaceAll("_", "/")));
  return null;
}

/** httpbin's `/html`, with a form and links a script parses (k6/html) and submits. */
const HTML_PAGE = `<!DOCTYPE html>
<html><head><title>Bench page</title><meta name="csrf" content="tok-123"></head>
<body>
<h1 id="top" class="title main" data-version="3">Herman Melville - Moby-Dick</h1>
<ul id="links">
  <li class="item"><a href="/get?page=1" data-id="1">One</a></li>
  <li class="item special"><a href="/get?page=2" data-id="2">Two</a></li>
  <li class="item"><a href="/get?page=3" data-id="3" rel="next">Three</a></li>
</ul>
<form id="login" action="/post" method="post">
  <input type="hidden" name="csrf" value="tok-123">
  <input type="text" name="user" value="ahab">
  <input type="checkbox" name="remember" value="yes" checked>
  <select name="ship"><option value="pequod" selected>Pequod</option><option value="rachel">Rachel</option></select>
  <textarea name="note">call me Ishmael</textarea>
  <button type="submit" name="go" value="1">Go</button>
</form>
<p>Availing himself of the mild, summer-cool weather.</p>
</body></html>
`;

/** httpbin's `form`: a field sent once as its value, a repeated one as the array of its values. */
function formOf(entries: Iterable<[string, string]>): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = {};
  for (const [k, v] of entries) {
    const had = form[k];
    form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return form;
}

/** A multipart body as httpbin shows it: its fields in `form`, its files' text in `files`. */
async function formFields(req: Request) {
  const body = await req.formData();
  const files: Record<string, string> = {};
  const fields: Array<[string, string]> = [];
  for (const [k, v] of body) {
    if (typeof v === "string") fields.push([k, v]);
    else files[k] = await v.text();
  }
  return { form: formOf(fields), files };
}

/** The examples' local server: its URL, how many requests it answered so far, and its end. */
export interface ExamplesServer {
  url: string;
  requests(): number;
  shutdown(): Promise<void>;
}

/** httpbin's echo paths and the built-in target on 127.0.0.1:`port` (0: a free one), counting requests. */
export function startExamplesServer(port = 0): ExamplesServer {
  const target = createTargetApp();
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (req) => {
    requests++;
    return await httpbin(req) ?? await quickPizza(req) ?? await crocodiles(req) ?? target.fetch(req);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests: () => requests,
    shutdown: () => server.shutdown(),
  };
}

/** Every script of `folder`, one after another, against one local server. */
export async function runExamples(folder: string): Promise<ExampleOutcome[]> {
  const files = [...Deno.readDirSync(folder)].filter((e) => e.isFile && e.name.endsWith(".js"))
    .map((e) => join(folder, e.name)).sort();
  const server = startExamplesServer();
  const http = { url: server.url };
  const grpc = files.some(isGrpcScript);
  try {
    if (!grpc) return await runEach(files, http, null);
    return await withK6GrpcServer(folder, (addr, why) => {
      if (addr !== null) Deno.env.set("GRPC_ADDR", addr);
      // One example's default proto path names k6's folder before it moved under internal/: the file itself.
      Deno.env.set(
        "GRPC_PROTO_PATH",
        join(folder, "../internal/lib/testutils/grpcservice/route_guide.proto"),
      );
      return runEach(files, http, addr === null ? why : { url: `http://${addr}` });
    });
  } finally {
    await server.shutdown();
  }
}

/** Whether the script at `path` calls gRPC (imports k6/net/grpc). */
export function isGrpcScript(path: string): boolean {
  return isK6File(path) && importsK6Module(path, "k6/net/grpc");
}

/** Each script against its server: gRPC ones against `grpc` (or not run, with why: no server). */
async function runEach(
  files: string[],
  http: ExampleTarget,
  grpc: ExampleTarget | string | null,
): Promise<ExampleOutcome[]> {
  const outcomes: ExampleOutcome[] = [];
  for (const path of files) {
    if (!isGrpcScript(path)) outcomes.push(await tryScript(path, http));
    else if (typeof grpc === "object" && grpc !== null) outcomes.push(await tryScript(path, grpc));
    else outcomes.push({ file: basename(path), outcome: "does not load", detail: `no gRPC server: ${grpc}` });
  }
  return outcomes;
}

if (import.meta.main) {
  const folder = Deno.args[0];
  if (folder === undefined) {
    console.error(
      "usage: deno run -A bench/k6_examples.ts FOLDER (k6's examples/, or any folder of k6 scripts)",
    );
    Deno.exit(2);
  }
  const outcomes = await runExamples(folder);
  for (const o of outcomes) console.log(`${o.file}: ${o.outcome}: ${o.detail}`);
  const k6 = outcomes.filter((o) => o.outcome !== "not k6");
  const runs = k6.filter((o) => o.outcome === "runs").length;
  console.log(
    `\n${runs} of ${k6.length} k6 scripts run unchanged (${Math.round((runs / k6.length) * 100)}%)`,
  );
}
