/**
 * @module
 * The origins a worker's script sessions send to. The run's target: its requests encoded by the
 * sessions' own `ScriptRequests`, its connections the load's (the same transport, TLS and recording).
 * Every other origin a script names by URL (`s.get("http://127.0.0.1:9000/x")`, a k6 script's second
 * host): its own encoder (its Host; requests named `METHOD origin/path`, so its numbers stand apart from
 * the target's) and the connection settings its connections dial with, the run's read through (recorder,
 * connect gate, timeout, the stop flag as it changes) with its own host and port over Deno's TCP, TLS for
 * https: (the load's epoll loop is bound to the target's one address). `routes` sends an origin the
 * script names to another URL (a local server in place of a public host); one routed to the target's
 * origin takes the target's place (its requests on the session's own connection, named by path).
 */
import type { ConnectionShared } from "../../http/load_connection.ts";
import { dialTarget, transportFor } from "../../http/transport/transport.ts";
import { ScriptRequests } from "./request.ts";

/** An origin sessions send to, with what its requests and connections need. */
export interface OriginPlace {
  /** The origin as the script names it (`https://api.example.com`). */
  readonly origin: string;
  /** Whether it is the run's target (its requests may go on the session's own connection). */
  readonly target: boolean;
  readonly requests: ScriptRequests;
  /** What its connections dial with (the run's own for the target). */
  readonly shared: ConnectionShared;
}

/** Origins sessions named beyond the target; past it a script walking hosts is refused. */
const MAX_ORIGINS = 64;
/** URLs whose target path is kept; past it the table starts again (a script naming ids in URLs). */
const MAX_PATHS = 1024;

/** The places of one run's sessions of a script (one worker's). */
export class ScriptOrigins {
  readonly #targetOrigin: string;
  readonly #routes: Readonly<Record<string, string>>;
  readonly #places = new Map<string, OriginPlace>();
  readonly #paths = new Map<string, string | null>();
  #target: OriginPlace | null = null;

  constructor(readonly requests: ScriptRequests) {
    this.#targetOrigin = requests.url.origin;
    this.#routes = requests.routes;
  }

  /** The target's place (its connections the run's `shared`). */
  target(shared: ConnectionShared): OriginPlace {
    return this.#target ??= { origin: this.#targetOrigin, target: true, requests: this.requests, shared };
  }

  /**
   * The request path of URL `href` when its origin is the target's or routed to it, else null (another
   * origin's, or not a URL): kept by href, so a script naming a few URLs parses each once.
   */
  pathOnTarget(href: string): string | null {
    const known = this.#paths.get(href);
    if (known !== undefined) return known;
    let path: string | null = null;
    try {
      const url = new URL(href);
      const origin = url.origin;
      if (origin === this.#targetOrigin || this.#routes[origin] === this.#targetOrigin) {
        path = url.pathname + url.search;
      }
    } catch {
      // not a URL: placeOf says why
    }
    if (this.#paths.size >= MAX_PATHS) this.#paths.clear();
    this.#paths.set(href, path);
    return path;
  }

  /** `url` (http:, https:, ws:, wss:) with its origin where the routes say: see `Session.route`. */
  routed(url: string): string {
    const given = new URL(url);
    const socket = given.protocol === "ws:" || given.protocol === "wss:";
    const origin = socket ? new URL(url.replace(/^ws/, "http")).origin : given.origin;
    const to = origin === this.#targetOrigin ? origin : this.#routes[origin];
    if (to === undefined) return url;
    const goes = new URL(to), secure = goes.protocol === "https:";
    const scheme = socket ? (secure ? "wss:" : "ws:") : goes.protocol;
    return `${scheme}//${goes.host}${given.pathname}${given.search}`;
  }

  /**
   * The place `target` (a path, or a URL) goes to: the target's for a path or a URL of its origin, else
   * the origin's own; a sentence when `target` is neither a path nor a URL of http: or https:.
   */
  placeOf(target: string, shared: ConnectionShared): OriginPlace | string {
    if (target.charCodeAt(0) === 47) return this.target(shared);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return `${JSON.stringify(target)} is neither a path (starting with /) nor a URL`;
    }
    const origin = url.origin;
    if (origin === this.#targetOrigin || this.#routes[origin] === this.#targetOrigin) {
      return this.target(shared);
    }
    const known = this.#places.get(origin);
    if (known !== undefined) return known;
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return `${target}: sessions send HTTP requests (http: or https: URLs)`;
    }
    if (this.#places.size >= MAX_ORIGINS) {
      return `${origin}: sessions sent to ${MAX_ORIGINS} origins besides the target already`;
    }
    const dialled = new URL(this.#routes[origin] ?? origin);
    const place = {
      origin,
      target: false,
      requests: new ScriptRequests(dialled, origin),
      shared: sharedFor(shared, dialled),
    };
    this.#places.set(origin, place);
    return place;
  }
}

/**
 * The run's shared parts for connections to `url`: read through (the stop flag, the log and the counts
 * are the run's as they change), with the origin's host, port and transport.
 */
function sharedFor(run: ConnectionShared, url: URL): ConnectionShared {
  const { hostname, port } = dialTarget(url);
  return Object.create(run, {
    hostname: { value: hostname },
    port: { value: port },
    transport: { value: transportFor(url) },
    connectBy: { value: null },
  });
}
