/**
 * @module
 * k6 scripts nobody here wrote, run as they are: every `.js` of a folder (k6's repository `examples/`)
 * converted (runner/script/k6/), its `options` mapped (scenarios/k6_options.ts) and two iterations run on
 * loadlab's engine, with the graceful stop its options give (k6's 30 s default where none) against a local server (in this process, loopback only: a script's public host is
 * replaced by it, as `loadlab run --target` does, and a second public host sent to it by the script's
 * `routes`). k6's examples were written against httpbin, so the
 * server answers httpbin's echo paths (`/get`, `/post`, ..., `/cookies`, `/redirect/N`, `/basic-auth/U/P`) as httpbin
 * does and everything else as the built-in target; a script of `k6/net/grpc` calls k6's own gRPC example
 * server instead (k6_grpc_server.ts, at `GRPC_ADDR`, over h2c). Each script ends as one of: runs (no script error;
 * its checks' pass count beside it), runs with script errors (the first message), refused (the
 * conversion's or the options' reason), does not load, or not a k6 script. The share that runs is
 * printed last.
 *
 *   deno run -A bench/k6_examples.ts FOLDER
 */
import { basename, join } from "node:path";
import { createTargetApp } from "../targets/app/app.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { importsK6Module, isK6File, sessionScriptPath } from "../runner/script/k6/k6_file.ts";
import { K6ConvertError } from "../runner/script/k6/convert.ts";
import { importScript } from "../runner/script/script_module.ts";
import { k6Experiment } from "../scenarios/k6_options.ts";
import { formatIssues } from "../validation/mod.ts";
import { withK6GrpcServer } from "./k6_grpc_server.ts";
import { digestAuthResponse } from "./httpbin_digest.ts";

/** How one script ended. */
export interface ExampleOutcome {
  file: string;
  outcome: "runs" | "script errors" | "refused" | "does not load" | "not k6";
  detail: string;
}

/** Where a script's requests go: its server's URL, and the HTTP version (h2c for gRPC). */
interface ExampleTarget {
  url: string;
  protocol?: "h2c";
}

/** Converts, maps and runs one script against `target`. */
async function tryScript(path: string, target: ExampleTarget): Promise<ExampleOutcome> {
  const file = basename(path);
  if (!isK6File(path)) return { file, outcome: "not k6", detail: "imports no k6 module" };
  let converted: string;
  try {
    converted = sessionScriptPath(path);
  } catch (err) {
    if (err instanceof K6ConvertError) return { file, outcome: "refused", detail: err.problems.join("; ") };
    throw err;
  }
  let options: Record<string, unknown>;
  try {
    options = (await importScript(converted)).options ?? {};
  } catch (err) {
    return { file, outcome: "does not load", detail: err instanceof Error ? err.message : String(err) };
  }
  const mapped = k6Experiment(options);
  if (!mapped.ok) return { file, outcome: "refused", detail: formatIssues(mapped.issues).join("; ") };
  const run = await runAttack(parseAttackConfig({
    ...target,
    model: "count",
    requests: 2,
    connections: 1,
    intervalMs: 100,
    timeoutMs: 2_000,
    gracefulStopMs: gracefulStopMs(mapped.value.loads),
    script: { path: converted, routes: routesTo(target.url) },
  }));
  const messages = Object.keys(run.errorMessages?.script ?? {});
  if (messages.length > 0) return { file, outcome: "script errors", detail: messages[0] };
  const checks = (run.flows?.[0]?.steps ?? []).flatMap((s) => s.checks ?? []);
  const passed = checks.reduce((a, c) => a + c.passed, 0),
    total = checks.reduce((a, c) => a + c.passed + c.failed, 0);
  return { file, outcome: "runs", detail: `${run.requests} requests, checks ${passed} of ${total} passed` };
}

/** k6's default `gracefulStop` of a scenario (its lib/executor/base_config.go). */
const K6_GRACEFUL_STOP_MS = 30_000;

/**
 * The graceful stop the script's options give (the longest of its scenarios'), k6's 30 s where they give
 * none: an iteration that holds a socket for seconds (websocket.js) ends as under k6 instead of being cut.
 */
function gracefulStopMs(loads: Record<string, Record<string, unknown>>): number {
  const each = Object.values(loads).map((load) => {
    const given = typeof load.gracefulStop === "string" ? Number.parseFloat(load.gracefulStop) : NaN;
    return Number.isFinite(given) ? given : K6_GRACEFUL_STOP_MS;
  });
  return each.length === 0 ? K6_GRACEFUL_STOP_MS : Math.max(...each);
}

/** The public hosts k6's examples name: a second one in a script goes to the local server too. */
const PUBLIC_ORIGINS = ["http://httpbin.org", "https://httpbin.org", "https://quickpizza.grafana.com"];

/** Each public origin routed to `url` (the script's first origin is the target already). */
function routesTo(url: string): Record<string, string> {
  return Object.fromEntries(PUBLIC_ORIGINS.map((origin) => [origin, url]));
}

/** A header name as httpbin spells it: each word's first letter upper case (`x-test` -> `X-Test`). */
function titleCase(name: string): string {
  return name.split("-").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("-");
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
  // echo.websocket.org (k6's ws example): a WebSocket at any path but the target's own sends every message back.
  if (req.headers.get("upgrade")?.toLowerCase() === "websocket" && !path.startsWith("/ws/")) {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (e) => socket.send(e.data);
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
  const auth = /^\/basic-auth\/([^/]+)\/([^/]+)$/.exec(path);
  if (auth) {
    const ok = req.headers.get("authorization") === `Basic ${btoa(`${auth[1]}:${auth[2]}`)}`;
    return ok ? Response.json({ authenticated: true, user: auth[1] }) : new Response(null, { status: 401 });
  }
  return null;
}

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
    return await httpbin(req) ?? target.fetch(req);
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
      return runEach(files, http, addr === null ? why : { url: `http://${addr}`, protocol: "h2c" });
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
