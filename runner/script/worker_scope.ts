/**
 * @module
 * The global scope of an isolate a script runs in, set before any script loads: `self` and a web worker's
 * globals put back, the one channel to loadlab's main isolate kept from the script, and the routes of the
 * script's own `fetch` and gRPC connections (`--target ORIGIN=URL`, `script.routes`).
 */
import { parentPort } from "node:worker_threads";

/** Sets `self` and `WorkerGlobalScope` on this isolate's global when they are missing. */
export function restoreWorkerNames(): void {
  const scope = globalThis as Record<string, unknown>;
  scope.self ??= globalThis;
  scope.WorkerGlobalScope ??= Object.getPrototypeOf(Object.getPrototypeOf(globalThis)).constructor;
}

/** Takes the channel to the main isolate for loadlab's own messages; a script's post through it throws. */
export function takeMainChannel<T>(): (msg: T) => void {
  const scope = globalThis as unknown as { postMessage(msg: unknown): void };
  const post = scope.postMessage.bind(scope);
  scope.postMessage = refusal("postMessage");
  if (parentPort !== null) parentPort.postMessage = refusal("parentPort.postMessage");
  return post;
}

function refusal(name: string): () => never {
  return () => {
    throw new TypeError(
      `${name}() is loadlab's own channel from this isolate to its main one, which would read the script's ` +
        "message as loadlab's: a script has no parent to post to; log with console.log",
    );
  };
}

let routes: Readonly<Record<string, string>> = {};

/** Sends this isolate's `fetch` (and `hookRoute`) for an origin `given` names to the origin it gives. */
export function routeHooks(given: Readonly<Record<string, string>>): void {
  routes = given;
  const fetched = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const routed = hookRoute(url);
    if (routed === url) return fetched(input, init);
    return fetched(input instanceof Request ? new Request(routed, input) : routed, init);
  };
}

/** `href` with its origin sent where the run sends it; `href` itself when nothing sends it elsewhere. */
export function hookRoute(href: string): string {
  const url = new URL(href);
  const to = Object.hasOwn(routes, url.origin) ? routes[url.origin] : undefined;
  return to === undefined ? href : new URL(url.pathname + url.search, to).href;
}
