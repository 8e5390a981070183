/**
 * @module
 * Which k6 modules a converted script may import, the file of this folder that stands in for each, and which
 * of their calls become asynchronous (k6's are synchronous: a VU owns its interpreter; loadlab's share one).
 */

/** Each k6 module's file, by literal URL: `deno compile` and the import graph follow only literals. */
const K6_MODULES: Readonly<Record<string, string>> = {
  "k6": new URL("../k6.ts", import.meta.url).href,
  "k6/http": new URL("../http.ts", import.meta.url).href,
  "k6/metrics": new URL("../metrics.ts", import.meta.url).href,
  "k6/data": new URL("../data.ts", import.meta.url).href,
  "k6/encoding": new URL("../encoding.ts", import.meta.url).href,
  "k6/crypto": new URL("../crypto.ts", import.meta.url).href,
  "k6/execution": new URL("../execution.ts", import.meta.url).href,
  "k6/ws": new URL("../ws.ts", import.meta.url).href,
  "k6/websockets": new URL("../ws.ts", import.meta.url).href,
  "k6/experimental/websockets": new URL("../ws.ts", import.meta.url).href,
  "k6/timers": new URL("../timers.ts", import.meta.url).href,
  "k6/net/grpc": new URL("../grpc.ts", import.meta.url).href,
  "k6/html": new URL("../html.ts", import.meta.url).href,
  "k6/secrets": new URL("../secrets.ts", import.meta.url).href,
  "k6/experimental/fs": new URL("../fs.ts", import.meta.url).href,
  "k6/experimental/streams": new URL("../streams.ts", import.meta.url).href,
  "k6/experimental/csv": new URL("../csv.ts", import.meta.url).href,
};

/** k6 modules refused, with why (a script importing one does not run here). */
export const K6_REFUSED: Readonly<Record<string, string>> = {
  "k6/browser": "k6/browser drives a browser; loadlab's sessions send HTTP requests only",
  "k6/experimental/redis": "k6/experimental/redis sends Redis commands, which loadlab's sessions do not: " +
    "run this script with k6, or put Redis behind the app as a target (docs/TARGETS.md)",
};

const HTTP_CALLS: ReadonlySet<string> = new Set(
  ["get", "post", "put", "patch", "del", "head", "options", "request", "batch", "asyncRequest"],
);

export const ASYNC_CALLS: Readonly<Record<string, ReadonlySet<string>>> = {
  "k6": new Set(["sleep", "group"]),
  "k6/http": HTTP_CALLS,
  // Resolves once the socket closed, as k6's VU blocked on it.
  "k6/ws": new Set(["connect"]),
};

/** A response's methods that send a request (`res.clickLink()`), awaited whatever the receiver is named. */
export const PAGE_CALLS: ReadonlySet<string> = new Set(["clickLink", "submitForm"]);

/** Classes whose instances' methods are asynchronous (`new grpc.Client()` makes `client.invoke` awaited). */
export const ASYNC_METHODS: Readonly<Record<string, Readonly<Record<string, ReadonlySet<string>>>>> = {
  "k6/net/grpc": { Client: new Set(["connect", "invoke", "asyncInvoke", "healthCheck"]) },
  // An Httpx session sends through k6/http: its methods are k6/http's, `del` spelled `delete`.
  "jslib/httpx": { Httpx: new Set([...HTTP_CALLS].map((m) => m === "del" ? "delete" : m)) },
  // None async: known so that a socket's listeners may wait (their events wait for them, ws.ts).
  "k6/websockets": { WebSocket: new Set() },
  "k6/experimental/websockets": { WebSocket: new Set() },
};

/** Array methods whose callback may send requests: run one element after another, awaited. */
export const ARRAY_METHODS: ReadonlySet<string> = new Set(
  ["forEach", "map", "filter", "some", "every", "find", "findIndex", "flatMap", "reduce"],
);

export function moduleUrl(name: string): string | undefined {
  return Object.hasOwn(K6_MODULES, name) ? K6_MODULES[name] : undefined;
}

/** k6's remote libraries (jslib.k6.io) this folder replaces, by the address scripts import, any version. */
const JSLIB: ReadonlyArray<{ name: string; url: string }> = [
  { name: "k6-utils", url: new URL("../jslib/utils.ts", import.meta.url).href },
  { name: "k6-summary", url: new URL("../jslib/summary.ts", import.meta.url).href },
  { name: "papaparse", url: new URL("../jslib/papaparse.ts", import.meta.url).href },
  { name: "url", url: new URL("../jslib/url.ts", import.meta.url).href },
  { name: "httpx", url: new URL("../jslib/httpx.ts", import.meta.url).href },
];

export function jslibOf(address: string): { module: string; url: string } | undefined {
  const m = /^https:\/\/jslib\.k6\.io\/([\w.-]+)\/[\w.-]+\/index\.js$/.exec(address);
  const found = m === null ? undefined : JSLIB.find((j) => j.name === m[1]);
  return found && { module: `jslib/${found.name}`, url: found.url };
}

export const RUNTIME_URL = new URL("../runtime.ts", import.meta.url).href;
