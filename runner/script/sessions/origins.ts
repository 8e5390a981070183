/**
 * @module
 * Where script sessions send: the target on its load connections, other URLs on Deno's TCP/TLS (verified as
 * the target's, `tlsAuth` too); `routes` redirect origins, a `keepHost` one (k6 `options.hosts`) only there.
 */
import type { ConnectionShared } from "../../http/load_connection.ts";
import { dialTarget, tcpTransport } from "../../http/transport/transport.ts";
import { tlsTransport } from "../../http/tls/deno_tls.ts";
import type { TlsOptions } from "../../http/tls/options.ts";
import { ScriptRequests } from "./request.ts";

export interface OriginPlace {
  readonly origin: string;
  /** Whether it is the run's target (its requests may go on the session's own connection). */
  readonly target: boolean;
  readonly requests: ScriptRequests;
  readonly shared: ConnectionShared;
}

/** Where a URL a session names goes, and its request path there. */
interface Resolved {
  readonly place: OriginPlace;
  readonly path: string;
}

/** Origins sessions named beyond the target; past it a script walking hosts is refused. */
const MAX_ORIGINS = 64;
/** URLs whose place and path are kept; past it the table starts again (a script naming ids in URLs). */
const MAX_PATHS = 1024;

export class ScriptOrigins {
  readonly #targetOrigin: string;
  readonly #places = new Map<string, OriginPlace>();
  readonly #resolved = new Map<string, Resolved | string>();
  #target: OriginPlace | null = null;

  constructor(
    readonly requests: ScriptRequests,
    readonly routes: Readonly<Record<string, string>> = {},
    readonly keepHost: readonly string[] = [],
    /** The run's TLS options: `insecure` and `caFile` serve every origin (the rest are the target's). */
    readonly tls?: TlsOptions,
  ) {
    this.#targetOrigin = requests.url.origin;
  }

  target(shared: ConnectionShared): OriginPlace {
    return this.#target ??= { origin: this.#targetOrigin, target: true, requests: this.requests, shared };
  }

  /** Where URL `href` goes and its request path there, remembered; a sentence when it cannot be sent. */
  resolve(href: string, shared: ConnectionShared): Resolved | string {
    const known = this.#resolved.get(href);
    if (known !== undefined) return known;
    const found = this.#resolve(href, shared);
    if (this.#resolved.size >= MAX_PATHS) this.#resolved.clear();
    this.#resolved.set(href, found);
    return found;
  }

  /** `url` with its origin where the routes say: see `Session.route`. */
  routed(url: string, named = false): string {
    const given = new URL(url);
    const socket = given.protocol === "ws:" || given.protocol === "wss:";
    const origin = socket ? new URL(url.replace(/^ws/, "http")).origin : given.origin;
    const to = this.routes[origin] ?? (origin === this.#targetOrigin ? origin : undefined);
    if (to === undefined || (named && this.keepHost.includes(origin))) return url;
    const goes = new URL(to), secure = goes.protocol === "https:";
    const scheme = socket ? (secure ? "wss:" : "ws:") : goes.protocol;
    return `${scheme}//${goes.host}${given.pathname}${given.search}`;
  }

  #resolve(href: string, shared: ConnectionShared): Resolved | string {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return `${JSON.stringify(href)} is neither a path (starting with /) nor a URL`;
    }
    const origin = url.origin, path = url.pathname + url.search;
    if (origin === this.#targetOrigin || this.routes[origin] === this.#targetOrigin) {
      return { place: this.target(shared), path };
    }
    const known = this.#places.get(origin);
    if (known !== undefined) return { place: known, path };
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return `${href}: sessions send HTTP requests (http: or https: URLs)`;
    }
    if (this.#places.size >= MAX_ORIGINS) {
      return `${origin}: sessions sent to ${MAX_ORIGINS} origins besides the target already`;
    }
    const dialled = new URL(this.routes[origin] ?? origin),
      sent = this.keepHost.includes(origin) ? new URL(origin) : dialled;
    const place = {
      origin,
      target: false,
      requests: new ScriptRequests(sent, origin),
      shared: sharedFor(shared, dialled, sent, this.tls),
    };
    this.#places.set(origin, place);
    return { place, path };
  }
}

/** The run's connection state for `dialled`, its TLS naming `sent`. */
function sharedFor(run: ConnectionShared, dialled: URL, sent: URL, tls?: TlsOptions): ConnectionShared {
  const { hostname, port } = dialTarget(dialled), { insecure = false, caFile, auth } = tls ?? {};
  const secure = { insecure, caFile, auth, resume: true }, name = dialTarget(sent).hostname;
  const transport = sent.protocol === "https:" ? tlsTransport(name, secure).transport : tcpTransport;
  return Object.create(run, {
    hostname: { value: hostname },
    port: { value: port },
    transport: { value: transport },
    connectBy: { value: null },
  });
}
