/**
 * @module
 * Checks across an attack config's common fields, run after each model's own; each names the fix.
 */
import type { LoadModel } from "../results/mod.ts";
import { hasPlaceholder } from "./http/template.ts";
import { scriptIssues } from "./script/spec.ts";
import { grpcFlowIssues } from "./grpc_step_spec.ts";
import type { CommonFields } from "./config_fields.ts";
import { endpointTable } from "./endpoint_table.ts";
import { isIP } from "./source_addresses.ts";
import { LOAD_MODEL_FACTS } from "../results/load_models.ts";
import { issueList, type PathIssue as Issue } from "../validation/mod.ts";

/** What the checks read: a model's name and the common fields, validated one by one. */
type CheckedConfig = CommonFields & { model: LoadModel };

/** Every problem across the common fields, flows' first, then a script's, data's, protocol's, sources'. */
export function commonFieldIssues(c: CheckedConfig): Issue[] {
  return [
    ...(c.flows ? flowIssues(c) : []),
    ...(c.script ? scriptIssues(c) : []),
    ...dataIssues(c),
    ...protocolIssues(c),
    ...sourceIssues(c),
  ];
}

/** What flows exclude: a model that cannot drive them, a mix of one's own, pipelining; ws steps' limits. */
function flowIssues(c: CheckedConfig): Issue[] {
  const [issues, add] = issueList();
  const noFlows = LOAD_MODEL_FACTS[c.model].noFlows;
  if (noFlows !== undefined) add(["flows"], noFlows);
  // The mix defaults to one `GET /`; anything else was given, and flows would silently ignore it.
  const [only, ...more] = c.requestMix;
  const defaultMix = more.length === 0 && only.method === "GET" && only.path === "/" &&
    only.headers.length === 0 && only.body === undefined;
  if (!defaultMix) {
    add(["requestMix"], "flows and a request mix exclude each other: put the requests in the flows' steps");
  }
  if (c.pipelining > 1) {
    add(["pipelining"], "flows send one request at a time: pipelining must be 1");
  }
  c.flows?.forEach((flow, f) => {
    const k = flow.steps.findIndex((s) => "ws" in s);
    if (k < 0) return;
    const why = /^wss?:/.test(c.url)
      ? "ws steps open their WebSocket from an http:// or https:// target; use its http(s) URL"
      : c.protocol !== "http1"
      ? `ws steps open their WebSocket with an HTTP/1.1 Upgrade: use protocol http1, not ${c.protocol}`
      : undefined;
    if (why !== undefined) add(["flows", f, "steps", k, "ws"], why);
  });
  for (const { flow, step, name } of endpointTable(c).clashes) {
    add(
      ["flows", flow, "steps", step],
      `the name ${JSON.stringify(name)} is both an HTTP request's and a ws step's: their numbers ` +
        "would pool (a message's round trip with a request's latency); give one of them a name of its own",
    );
  }
  return issues;
}

/** What data sources exclude: pipelining (a batch could run out midway); cookies without flows. */
function dataIssues(c: CheckedConfig): Issue[] {
  const [issues, add] = issueList();
  if (c.cookies === true && c.flows === undefined && c.script === undefined) {
    add(["cookies"], "cookies are kept per session: they need flows (a request mix keeps none)");
  }
  if (c.data !== undefined && c.pipelining > 1) {
    add(["pipelining"], "a load with data sends one request per row: pipelining must be 1");
  }
  return issues;
}

/** Source addresses the run cannot dial from: on the deno transport, or of another family than the target. */
function sourceIssues(c: CheckedConfig): Issue[] {
  const sources = c.sourceAddresses;
  if (!sources) return [];
  const path = ["sourceAddresses"];
  if (c.transport === "deno") {
    return [{
      path,
      message: "source addresses need the epoll transport (deno cannot bind): drop transport deno",
    }];
  }
  const host = isIP(new URL(c.url).hostname.replace(/^\[(.*)\]$/, "$1"));
  const families = new Set(sources.map((ip) => isIP(ip)));
  if (families.size > 1 || (host !== 0 && !families.has(host))) {
    const want = host === 0 ? "of one family" : `IPv${host}, as the target's address is`;
    return [{ path, message: `source addresses must all be ${want}` }];
  }
  return [];
}

/** `concurrency` needs fixed connections, at least one stream on each and no more than `streams`. */
function concurrencyIssues(c: CheckedConfig): Issue[] {
  const n = c.concurrency;
  if (n === undefined) return [];
  const path = ["concurrency"];
  const f = c as CheckedConfig & { connections?: number; ratePerSec?: number };
  const fixed = LOAD_MODEL_FACTS[c.model].pacing(f.ratePerSec !== undefined) !== "open";
  if (!fixed || f.connections === undefined || c.connection === "per-arrival") {
    const message =
      "concurrency is dealt over fixed connections: use the connections, count or throughput model";
    return [{ path, message }];
  }
  const most = f.connections * c.streams;
  if (n >= f.connections && n <= most) return [];
  return [{
    path,
    message: `concurrency must be between connections (${f.connections}) and connections x streams (${most})`,
  }];
}

/** What HTTP/3 over Deno's QUIC cannot do (each request encoded once; rustls options Deno hides). */
function h3Issues(c: CheckedConfig): Issue[] {
  const [issues, add] = issueList();
  if (!c.url.startsWith("https://")) {
    add(["protocol"], "protocol h3 runs over QUIC, which is always TLS: use an https:// URL");
  }
  if (c.grpc !== undefined) add(["protocol"], "gRPC runs over HTTP/2: use protocol h2, not h3");
  if (typeof (Deno as { connectQuic?: unknown }).connectQuic !== "function") {
    add(
      ["protocol"],
      "protocol h3 needs Deno's QUIC: run deno with --unstable-net (the loadlab binary has it)",
    );
  }
  const mixOnly = "protocol h3 sends the request mix, each request encoded once";
  if (c.flows !== undefined) add(["flows"], `${mixOnly}: flows need protocol http1 or h2`);
  if (c.script !== undefined) add(["script"], `${mixOnly}: session scripts need protocol http1 or h2`);
  if (c.data !== undefined) add(["data"], `${mixOnly}: data rows need protocol http1 or h2`);
  const templated = c.requestMix.findIndex((r) =>
    hasPlaceholder(r.path) || r.headers.some(([n, v]) => hasPlaceholder(n) || hasPlaceholder(v))
  );
  if (templated >= 0) {
    add(["requestMix", String(templated)], `${mixOnly}: {{placeholders}} need protocol http1 or h2`);
  }
  if (c.pipelining > 1) {
    add(["pipelining"], "protocol h3 sends concurrent streams: use streams, not pipelining");
  }
  if (c.connection === "per-arrival") {
    add(["connection"], "protocol h3 keeps its QUIC connections alive: drop connection per-arrival");
  }
  if (c.transport !== "auto") add(["transport"], "protocol h3 runs on Deno's QUIC: drop transport");
  if (c.sourceAddresses !== undefined) {
    add(["sourceAddresses"], "protocol h3 runs on Deno's QUIC, which cannot bind: drop source addresses");
  }
  const tls = c.tls;
  if (tls?.insecure) {
    add(
      ["tls", "insecure"],
      "Deno's QUIC cannot skip certificate verification: drop --insecure and pass the server's " +
        "certificate or its CA with --cacert",
    );
  }
  if (tls?.certFile !== undefined) {
    add(["tls", "certFile"], "Deno's QUIC cannot present a client certificate: drop --cert and --key");
  }
  for (const key of ["minVersion", "maxVersion", "ciphers"] as const) {
    if (tls?.[key] !== undefined) {
      add(["tls", key], `QUIC is TLS 1.3 with the suites Deno's QUIC picks: drop tls.${key}`);
    }
  }
  issues.push(...concurrencyIssues(c));
  return issues;
}

/** What HTTP/2 excludes: flows, pipelining, header-name placeholders, per-arrival streams, h2c on https:. */
function protocolIssues(c: CheckedConfig): Issue[] {
  if (c.protocol === "h3") return h3Issues(c);
  if (c.grpc !== undefined && (c.protocol === "http1" || c.protocol === "auto")) {
    return [{
      path: ["protocol"],
      message: "gRPC runs over HTTP/2: use protocol h2 (https:) or h2c (http:)",
    }];
  }
  const grpcIssues = grpcFlowIssues(c);
  if (grpcIssues.length > 0) return grpcIssues;
  if (c.protocol === "http1") {
    return c.streams > 1
      ? [{ path: ["streams"], message: "streams apply to HTTP/2: add protocol h2 (--h2), or drop streams" }]
      : [];
  }
  const [issues, add] = issueList();
  if (c.protocol === "auto" && c.url.startsWith("http://") && c.streams > 1) {
    // No TLS, no ALPN: auto speaks HTTP/1.1 there, and the streams would be dropped without a word.
    add(
      ["streams"],
      "protocol auto on an http:// URL speaks HTTP/1.1: use protocol h2c for HTTP/2, or drop streams",
    );
  }
  if (c.protocol === "h2c" && c.url.startsWith("https://")) {
    add(["protocol"], "h2c is cleartext: use an http:// URL, or protocol h2 for https://");
  }
  const what = `protocol ${c.protocol}`;
  issues.push(...headerNamePlaceholders(c, what));
  if (c.pipelining > 1) {
    add(["pipelining"], `${what} sends concurrent streams: use streams, not pipelining`);
  }
  issues.push(...concurrencyIssues(c));
  if (c.connection === "per-arrival" && c.streams > 1) {
    add(
      ["streams"],
      "a per-arrival connection carries its arrival's one request on one stream: " +
        "drop streams, or keep connections alive",
    );
  }
  return issues;
}

/** Header names with a placeholder: an h2 header name is checked once, when the request is encoded. */
function headerNamePlaceholders(c: CheckedConfig, what: string): Issue[] {
  const [issues, add] = issueList();
  const rule = `has a placeholder: over ${what} only values, paths and bodies take them`;
  const issue = (path: Array<string | number>, name: string) => add(path, `header name "${name}" ${rule}`);
  c.requestMix.forEach((r, k) => {
    const name = r.headers.find(([n]) => hasPlaceholder(n))?.[0];
    if (name !== undefined) issue(["requestMix", k, "headers"], name);
  });
  c.flows?.forEach((flow, f) =>
    flow.steps.forEach((step, k) => {
      const name = "request" in step ? step.request.headers.find(([n]) => hasPlaceholder(n))?.[0] : undefined;
      if (name !== undefined) issue(["flows", f, "steps", k, "request", "headers"], name);
    })
  );
  return issues;
}
