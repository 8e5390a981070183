/**
 * @module
 * The live dashboard: the report page and a Server-Sent Events stream to any number of browsers (an event
 * encoded once, never waiting on a browser); what it shares with `loadlab site` (listening, `--open`).
 */
import type { AttackProgress, ResultsFile, TelemetrySeries } from "../../results/mod.ts";
import type { LiveProgress } from "../../report/html/client/live.ts";
import { buildResultsFile, loadResultsFile } from "../../results/io.ts";
import { printOwnLine } from "../../system/console_guard.ts";
import { buildPageData } from "../../report/html/page/data.ts";
import { renderReport } from "../../report/html/render.ts";
import type { RunPlanHooks } from "../../scenarios/run/run_plan.ts";
import { findProgram } from "../../system/path_lookup.ts";
import { urlHost } from "../../system/ports.ts";
import { within } from "../../system/sleep.ts";
import { rejectForeignHost } from "./local_http.ts";
import { type ControlOptions, controlResponse, newSteerToken } from "./steer_control.ts";
import { type ServeOptions, steeringFor } from "./flags.ts";
import type { RunSteering } from "../../runner/steering.ts";
import { describeChange } from "../../results/schema/steering.ts";
import { closeQuietly } from "../../system/descriptors.ts";
import { UsageError } from "../usage_error.ts";

/** The progress samples of the run under way kept for late browsers (10 minutes at 4 a second). */
const BACKLOG_POINTS = 2400;

/** A started dashboard: feed it through `hooks` (or the methods), then `finish`. */
export class Dashboard {
  readonly url: string;
  readonly #hub: EventHub;
  readonly #server: Deno.HttpServer;
  readonly #ping: ReturnType<typeof setInterval>;
  #results: ResultsFile | null = null;
  #snapshot: Uint8Array | null = null;
  #runStart: { index: number; total: number; name: string; etaMs: number; atMs: number } | null = null;
  #backlog: LiveProgress[] = [];
  #telemetry: (() => TelemetrySeries[]) | null = null;
  #pending: Promise<void> = Promise.resolve();
  #ended = false;
  #keepSecrets = false;
  #control: ControlOptions | null = null;
  /** The steering its controls change, when on. */
  steering?: RunSteering;

  private constructor(server: Deno.HttpServer, hub: EventHub, url: string) {
    this.#server = server;
    this.#hub = hub;
    this.url = url;
    // A comment line keeps idle connections from being closed by proxies and finds dead sockets.
    this.#ping = setInterval(() => hub.sendFrame(PING_FRAME), 15_000);
    Deno.unrefTimer(Number(this.#ping));
  }

  /** Starts the server; prints its URL (and a warning for a non-loopback host) on stderr. */
  static start(opts: ServeOptions & { title: string; command: string }): Dashboard {
    const page = new TextEncoder().encode(
      renderReport(buildResultsFile({ experiment: { name: opts.title }, runs: [] }), { live: true }),
    );
    const hub = new EventHub();
    // The handler needs the dashboard, the dashboard needs the server: filled in right below.
    const ref: { dashboard?: Dashboard } = {};
    const { server, port, url: base } = serveLocal(
      opts.command,
      { ...opts, portFlag: "--dashboard-port", what: "--dashboard: " },
      (req) => ref.dashboard ? ref.dashboard.#route(req, page) : new Response("starting", { status: 503 }),
    );
    const steering = typeof opts.steering === "object" ? opts.steering : null;
    const token = newSteerToken();
    // The token rides in the URL (the page reads it there): a printed URL steers, a bare one watches.
    const url = `${base}${steering ? `?token=${token}` : ""}`;
    // The URL's token is loadlab's own, made for whoever started it: shown as it is.
    printOwnLine(`dashboard: ${url}`);
    if (steering) {
      printOwnLine(`steer: loadlab steer '${url}' pause|resume|rate N|connections N|end-phase|stop`);
      steering.onChange = (change, state) => {
        hub.send("steer", { change, state });
        // On its own line: the live progress line redraws below it.
        console.error(`\nsteer: ${describeChange(change)} at ${change.atSec.toFixed(2)}s (${change.by})`);
      };
      // A load's start or end changes the controls: every page hears it, however early it fetched the state.
      steering.onState = (state) => hub.send("steer", { state });
    } else if (typeof opts.steering === "string") {
      console.error(`dashboard: steering is off: ${opts.steering}`);
    }
    ref.dashboard = new Dashboard(server, hub, url);
    ref.dashboard.#keepSecrets = opts.keepSecrets ?? false;
    ref.dashboard.steering = steering ?? undefined;
    ref.dashboard.#control = {
      steering,
      offReason: typeof opts.steering === "string" ? opts.steering : "this command was started without it",
      token,
      listenHost: opts.host,
      port,
    };
    if (opts.open) openBrowser(url);
    return ref.dashboard;
  }

  /** `runPlan`'s hooks, after `first`'s: results.json read at the first start, each ended run appended. */
  hooks(resultsPath: string, first: RunPlanHooks): RunPlanHooks {
    return {
      onRunStart: (run, i, n, etaMs) => {
        first.onRunStart?.(run, i, n, etaMs);
        if (i === 0) this.#load(resultsPath);
        this.runStarted(run.name, i, n, etaMs);
      },
      onProgress: (p) => (first.onProgress?.(p), this.progress(p)),
      onTelemetry: (peek) => (first.onTelemetry?.(peek), this.#telemetry = peek),
      onRunEnd: (result, run) => {
        first.onRunEnd?.(result, run);
        this.#pending = this.#pending.then(() => {
          if (this.#results) this.publish({ ...this.#results, runs: [...this.#results.runs, result] });
        });
      },
    };
  }

  runStarted(name: string, index: number, total: number, etaMs: number): void {
    this.#runStart = { index, total, name, etaMs, atMs: Date.now() };
    this.#backlog = [];
    this.#telemetry = null;
    this.#hub.send("run-start", { index, total, name, etaMs });
  }

  /** One progress sample, with each target process' latest CPU and memory when telemetry runs. */
  progress(progress: AttackProgress): void {
    // The terminal's busiest endpoints stay there: their names are not redacted yet.
    const { endpoints: _endpoints, ...p } = progress;
    const sample: LiveProgress = this.#telemetry ? { ...p, targets: latestTelemetry(this.#telemetry()) } : p;
    if (this.#backlog.length >= BACKLOG_POINTS) this.#backlog.splice(0, this.#backlog.length / 2);
    this.#backlog.push(sample);
    this.#hub.send("progress", sample);
  }

  /** Makes `results` the page's data, built only when a browser is connected or connects. */
  publish(results: ResultsFile): void {
    this.#results = results;
    this.#snapshot = null;
    if (this.#hub.stats().clients > 0) this.#hub.sendFrame(this.#snapshotFrame()!);
  }

  #snapshotFrame(): Uint8Array | null {
    if (!this.#snapshot && this.#results) {
      this.#snapshot = sseFrame(
        "snapshot",
        buildPageData(this.#results, undefined, { keepSecrets: this.#keepSecrets }),
      );
    }
    return this.#snapshot;
  }

  /** Sends the final snapshot and `end`, closes the streams and stops the server within `graceMs`. */
  async finish(results?: ResultsFile, graceMs = 2000): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await this.#pending;
    if (results) this.publish(results);
    this.#hub.send("end", {});
    this.#hub.closeAll();
    clearInterval(this.#ping);
    await within(this.#server.shutdown(), graceMs);
    this.#server.unref();
  }

  /** Reads results.json after what is already pending; a failed read leaves the page without runs. */
  #load(resultsPath: string): void {
    this.#pending = this.#pending
      .then(() => loadResultsFile(resultsPath))
      .then((results) => this.publish(results), () => {});
  }

  #route(req: Request, page: Uint8Array<ArrayBuffer>): Response | Promise<Response> {
    const path = new URL(req.url).pathname;
    if (path === "/control" && this.#control) return controlResponse(req, this.#control);
    if (req.method !== "GET") return new Response("method not allowed", { status: 405 });
    if (path === "/" || path === "/index.html") return pageResponse(page);
    if (path === "/events") return this.#hub.connect(this.#initialFrames());
    if (path === "/stats") return Response.json(this.#hub.stats());
    return new Response("not found", { status: 404 });
  }

  /** What a browser connecting now needs: the latest snapshot, the run under way, its samples, steering. */
  #initialFrames(): Uint8Array[] {
    const snapshot = this.#snapshotFrame();
    const frames = snapshot ? [snapshot] : [];
    if (this.#ended) return [...frames, sseFrame("end", {})];
    const run = this.#runStart;
    if (run) {
      const etaMs = Math.max(0, run.etaMs - (Date.now() - run.atMs));
      frames.push(sseFrame("run-start", { ...run, etaMs, atMs: undefined }));
      if (this.#backlog.length) frames.push(sseFrame("backlog", this.#backlog));
    }
    const steering = this.#control?.steering;
    if (steering) frames.push(sseFrame("steer", { state: steering.state() }));
    return frames;
  }
}

/** Starts the dashboard for a command, steering on unless its flags or `gated` thresholds say no. */
export function startDashboard(
  command: string,
  title: string,
  opts: ServeOptions,
  gated: boolean,
): Dashboard {
  return Dashboard.start({ ...opts, title, command, steering: steeringFor(opts, gated) });
}

/**
 * A page server of loadlab's (the dashboard, `loadlab site`) on `host:port`, answering only to this
 * machine's names and warned of beyond loopback; a `UsageError` when it cannot listen there.
 */
export function serveLocal(
  command: string,
  opts: { host: string; port: number; portFlag: string; what?: string },
  handler: (req: Request) => Response | Promise<Response>,
): { server: Deno.HttpServer; port: number; url: string } {
  let server: Deno.HttpServer;
  try {
    server = Deno.serve(
      { hostname: opts.host, port: opts.port, onListen: () => {} },
      (req) => rejectForeignHost(req, opts.host) ?? handler(req),
    );
  } catch (err) {
    if (!isListenError(err)) throw err;
    throw new UsageError(
      `${opts.what ?? ""}cannot listen on ${opts.host}:${opts.port}: ${err.message}; ` +
        `use a free port of an address of this machine, e.g. --host 127.0.0.1 ${opts.portFlag} 0`,
    );
  }
  warnIfExposed(command, opts.host);
  const port = (server.addr as Deno.NetAddr).port;
  return { server, port, url: `http://${urlHost(opts.host)}:${port}/` };
}

/** A page of HTML, never cached (it changes as runs go and results arrive). */
export function pageResponse(html: BodyInit): Response {
  return new Response(html, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/** True for the errors of listening on a bad address (port taken, address not ours, name unresolved). */
export function isListenError(err: unknown): err is Error {
  return err instanceof Deno.errors.AddrInUse || err instanceof Deno.errors.AddrNotAvailable ||
    err instanceof Deno.errors.PermissionDenied ||
    (err instanceof Error && /failed to lookup address|invalid (empty )?host/i.test(err.message));
}

/** The last sample of every series: a few numbers per progress event, whatever the run's length. */
function latestTelemetry(series: TelemetrySeries[]): NonNullable<LiveProgress["targets"]> {
  return series.flatMap((s) => {
    const last = s.samples.at(-1);
    // Runtime series (event loop, GC) share their process's name and carry no CPU or memory.
    if (!last || s.kind === "runtime") return [];
    const rssMiB = typeof last.rssBytes === "number" ? Math.round(last.rssBytes / 10485.76) / 100 : null;
    return [{ name: s.name, cpuPercent: last.cpuPercent ?? null, rssMiB }];
  });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** `--host` beyond loopback: results (target URLs, error messages) become readable from the network. */
function warnIfExposed(command: string, host: string): void {
  if (LOOPBACK.has(host)) return;
  console.error(
    `loadlab ${command}: warning: listening on ${host}: the results become readable from the network ` +
      `(no authentication); leave out --host to keep them on 127.0.0.1`,
  );
}

/** Opens `url` in a browser, or says why not. */
export function openBrowser(url: string): void {
  const os = Deno.build.os;
  const opener = os === "darwin" ? "open" : os === "windows" ? null : findProgram("xdg-open");
  const command = os === "windows" ? ["cmd", "/c", "start", "", url] : opener && [opener, url];
  if (!command) {
    console.error(`--open: no xdg-open found; open ${url} in a browser`);
    return;
  }
  try {
    const child = new Deno.Command(command[0], {
      args: command.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    child.status.catch(() => {});
  } catch (err) {
    console.error(`--open: ${command[0]} failed (${(err as Error).message}); open ${url} in a browser`);
  }
}

const encoder = new TextEncoder();
const PING_FRAME = encoder.encode(": ping\n\n");

/** Default bound of one client's queue: far above a run's snapshot, far below a worry. */
const CLIENT_BUFFER_BYTES = 8 << 20;

interface Client {
  controller: ReadableStreamDefaultController<Uint8Array>;
  open: boolean;
}

/** How the clients fared, for `/stats` and the tests. */
export type HubStats = ReturnType<EventHub["stats"]>;

/** One SSE frame: `event:` line, the JSON on one `data:` line (JSON.stringify never emits newlines). */
export function sseFrame(event: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The set of connected browsers. */
export class EventHub {
  readonly #clients = new Set<Client>();
  readonly #limitBytes: number;
  #dropped = 0;
  /** The most bytes any client's queue held right after an event was added. */
  #maxQueuedBytes = 0;

  constructor(limitBytes = CLIENT_BUFFER_BYTES) {
    this.#limitBytes = limitBytes;
  }

  /** A `text/event-stream` response for a new client, starting with `initial` frames. */
  connect(initial: Uint8Array[]): Response {
    let client: Client;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        client = { controller, open: true };
        this.#clients.add(client);
        for (const frame of initial) this.#offer(client, frame);
      },
      cancel: () => this.#forget(client),
    }, new ByteLengthQueuingStrategy({ highWaterMark: this.#limitBytes }));
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  }

  /** Sends one event to every client; returns at once. */
  send(event: string, data: unknown): void {
    if (this.#clients.size > 0) this.sendFrame(sseFrame(event, data));
  }

  /** Sends an already encoded frame (`sseFrame`) to every client. */
  sendFrame(frame: Uint8Array): void {
    for (const client of this.#clients) this.#offer(client, frame);
  }

  /** Ends every stream after what is queued (the final snapshot) has been sent. */
  closeAll(): void {
    for (const client of this.#clients) {
      this.#forget(client);
      closeQuietly(client.controller);
    }
  }

  stats() {
    return {
      clients: this.#clients.size,
      dropped: this.#dropped,
      maxQueuedBytes: this.#maxQueuedBytes,
      limitBytes: this.#limitBytes,
    };
  }

  #offer(client: Client, frame: Uint8Array): void {
    if (!client.open) return;
    const queued = this.#limitBytes - (client.controller.desiredSize ?? 0);
    if (queued > 0 && queued + frame.byteLength > this.#limitBytes) return this.#drop(client);
    client.controller.enqueue(frame);
    this.#maxQueuedBytes = Math.max(this.#maxQueuedBytes, queued + frame.byteLength);
  }

  /** Too far behind: the queue is discarded and the connection ends (the browser may reconnect). */
  #drop(client: Client): void {
    this.#forget(client);
    this.#dropped++;
    try {
      client.controller.error(new Error("dropped: the client fell too far behind"));
    } catch { /* already gone */ }
  }

  #forget(client: Client): void {
    client.open = false;
    this.#clients.delete(client);
  }
}
