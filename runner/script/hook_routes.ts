/**
 * @module
 * Where a script's `setup()`, `teardown()` and handleSummary send an origin the run sends elsewhere
 * (`--target ORIGIN=URL`, `script.routes`): their `fetch`, and a k6 script's gRPC connections there.
 */
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
