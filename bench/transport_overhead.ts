/**
 * @module
 * The epoll transport's own CPU per request, without a kernel or a server: the pump, the sockets,
 * the connections, the parser, the recorder and the closed loop run over a fake `EpollSys` that
 * answers every write at once (a canned nginx response, readable at the next poll). What remains is
 * loadlab's user-space cost per request, which a machine shared with other work cannot show in
 * `deno task bench` (there the kernel's share and the target's speed dominate). Pin it for steadier
 * figures; no test asserts a speed.
 *
 *   taskset -c 1 deno run -A bench/transport_overhead.ts [--duration-ms 2000] [--connections 50]
 *     [--endpoints 2] [--script session|k6|locust]
 *
 * The mix is two requests; `--endpoints 2` records them as two endpoints (runner/stats/endpoint_recorder.ts),
 * `--endpoints 1` (the default) as one: the single histogram of a run of one endpoint.
 *
 * `--script session|k6|locust` runs the same loop as script sessions of one `GET /` each instead (the
 * session engine of runner/script/sessions/ over the same connections): a TypeScript session's
 * `await s.get("/")`, k6's one-`http.get` script converted, a locustfile's one-GET `HttpUser` converted;
 * requests are then counted as the fake's writes. The clock is the epoll transport's (an FFI read).
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { EPOLLIN, EPOLLOUT, EpollSys } from "../runner/http/transport/epoll/ffi.ts";
import { sockAddrOf } from "../runner/http/transport/sock_addr.ts";
import { EpollLoop } from "../runner/http/transport/epoll/transport.ts";
import { Connection } from "../runner/http/h1/connection.ts";
import type { ConnectionShared } from "../runner/http/load_connection.ts";
import { CLOSED_MODEL_BLOCK_MS } from "../runner/http/transport/choice.ts";
import { ConnectGate } from "../runner/http/transport/connect_gate.ts";
import { RequestMix } from "../runner/http/request.ts";
import { IntervalRecorder } from "../runner/stats/recorder.ts";
import { closedLoop } from "../runner/load/closed_loop.ts";
import type { LoadContext } from "../runner/load/executor.ts";
import { ScriptSessions } from "../runner/script/sessions/worker_sessions.ts";
import { importScript } from "../runner/script/module.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";
import { locustSessionPath } from "../runner/script/locust/file.ts";
import type { AttackConfig } from "../runner/config.ts";

const RESPONSE = new TextEncoder().encode(
  "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n" +
    "Connection: keep-alive\r\n\r\nok",
);
const EVENT_WORDS = 3; // x86_64's packed epoll_event: flags, then the 64-bit token
const MAX_EVENTS = 256;

/** The calls of `EpollSys` the transport makes, answered in memory: every request is answered at once. */
class FakeSys {
  readonly events = new Uint32Array(MAX_EVENTS * EVENT_WORDS);
  readonly idleEvents = new Uint32Array(MAX_EVENTS * EVENT_WORDS);
  #nextFd = 3;
  readonly #tokens = new Map<number, number>();
  readonly #answers = new Map<number, number>();
  #ready: number[] = [];
  readonly #clock = new EpollSys();
  writes = 0;
  tcpSocket = () => this.#nextFd++;
  epollCreate = () => 1_000;
  epollCtl(_epfd: number, _op: number, fd: number, _events: number, token: number) {
    this.#tokens.set(fd, token);
    return 0;
  }
  connect = () => 0;
  socketError = () => 0;
  epollWait = () => this.#fill(this.events);
  epollWaitAsync = () => Promise.resolve(this.#fill(this.idleEvents));
  eventFlags = (events: Uint32Array, i: number) => events[i * EVENT_WORDS];
  eventToken = (events: Uint32Array, i: number) => events[i * EVENT_WORDS + 1];
  write(fd: number, bytes: Uint8Array) {
    this.writes++;
    this.#answers.set(fd, 1);
    this.#ready.push(fd);
    return bytes.length;
  }
  read(fd: number, buf: Uint8Array) {
    if (this.#answers.get(fd) !== 1) return -11; // EAGAIN
    this.#answers.set(fd, 0);
    buf.set(RESPONSE);
    return RESPONSE.length;
  }
  close() {}
  closeDrained() {}
  closeEpoll() {}
  nowMs = () => this.#clock.nowMs();
  #fill(events: Uint32Array): number {
    const n = Math.min(MAX_EVENTS, this.#ready.length);
    for (let i = 0; i < n; i++) {
      events[i * EVENT_WORDS] = EPOLLIN | EPOLLOUT;
      events[i * EVENT_WORDS + 1] = this.#tokens.get(this.#ready[i])!;
    }
    this.#ready = this.#ready.slice(n);
    return n;
  }
}

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "duration-ms": { type: "string", default: "2000" },
    connections: { type: "string", default: "50" },
    endpoints: { type: "string", default: "1" },
    script: { type: "string", default: "" },
  },
});
const script = values.script ?? "";
const endpoints = values.endpoints === "2" ? 2 : 1;
const durationMs = Number(values["duration-ms"]);
const connections = Number(values.connections);
const sys = new FakeSys();
const loop = new EpollLoop(sockAddrOf("127.0.0.1", 80), sys as unknown as EpollSys, {
  blockMs: CLOSED_MODEL_BLOCK_MS,
});
const recorder = new IntervalRecorder({
  intervalMs: 250,
  originMs: performance.now(),
  uncorrected: false,
  endpoints,
  namedEndpoints: script !== "",
});
const shared: ConnectionShared = {
  hostname: "127.0.0.1",
  port: 80,
  transport: (_hostname, _port, signal) => loop.connect(signal),
  recorder,
  mix: new RequestMix(
    new URL("http://127.0.0.1/"),
    [{ method: "GET", path: "/", headers: [], weight: 1 }, {
      method: "GET",
      path: "/?x=1",
      headers: [],
      weight: 1,
    }],
    0,
    [],
    [0, endpoints - 1],
  ),
  timeoutMs: 5_000,
  maxHeaderBytes: 64 * 1024,
  connectGate: new ConnectGate(Infinity),
  log: null,
  stopping: false,
};

/** `--script`'s one-GET files: a session script, k6's script and a locustfile (both converted). */
const SCRIPTS: Record<string, [string, string]> = {
  session: ["one_get.js", 'export default async (s) => { await s.get("/"); };\n'],
  k6: [
    "k6.js",
    'import http from "k6/http";\nexport default function () { http.get("http://127.0.0.1/"); }\n',
  ],
  locust: [
    "one_get.py",
    "from locust import HttpUser, task, constant\n\n\nclass OneGet(HttpUser):\n    wait_time = constant(0)\n\n" +
    '    @task\n    def one(self):\n        self.client.get("/")\n',
  ],
};

/** The script sessions of `--script`, or null for the fixed request. */
async function scriptSessions(): Promise<ScriptSessions | null> {
  if (script === "") return null;
  if (SCRIPTS[script] === undefined) throw new Error(`--script ${script}: session, k6 or locust`);
  const [name, text] = SCRIPTS[script];
  const path = join(Deno.makeTempDirSync({ prefix: "loadlab-overhead-" }), name);
  Deno.writeTextFileSync(path, text);
  const module = await importScript(script === "locust" ? locustSessionPath(path) : sessionScriptPath(path));
  const config = {
    url: "http://127.0.0.1/",
    // As `loadlab run` a locustfile (k6's bench runs without).
    cookies: script === "locust",
    script: { path, env: {}, routes: {}, keepHost: [] },
  } as unknown as AttackConfig;
  return new ScriptSessions(module, { config, originMs: 0, feeder: null, workerIndex: 0, workerCount: 1 });
}
const conns = Array.from({ length: connections }, (_, k) => new Connection(k, shared));

/** One closed-model run of `ms` over the fake; resolves with the requests sent. */
async function run(ms: number): Promise<number> {
  // Sessions of their own: a run's end stops its users (a locustfile's `on_stop`), as `loadlab run`'s does.
  const sessions = await scriptSessions();
  const endMs = performance.now() + ms;
  const writes = sys.writes;
  const take = (depth: number, nowMs: number) => nowMs < endMs ? depth : 0;
  const ctx = {
    config: { pipelining: 1 },
    arrival: null,
    stopRequested: false,
    endMs,
  } as unknown as LoadContext;
  const drain = setInterval(() => recorder.drain(performance.now(), false), 50);
  const sessionRun = { shared, ended: new AbortController().signal };
  await Promise.all(conns.map(async (conn) => {
    if (sessions === null) return await closedLoop(ctx, conn, take);
    conn.lastEventMs = performance.now();
    while (take(1, conn.lastEventMs) !== 0) await sessions.run(sessionRun, conn, -1, take);
  }));
  clearInterval(drain);
  return sys.writes - writes;
}

await run(1_000); // the JIT's warm-up (a script's layers take longer than the fixed loop's 300 ms)
// The quietest of three runs: on a shared core the others carry other work's time.
let best = { requests: 0, rps: 0, userUs: Infinity, systemUs: 0 };
for (let k = 0; k < 3; k++) {
  const cpu0 = process.cpuUsage();
  const startMs = performance.now();
  const requests = await run(durationMs);
  const cpu = process.cpuUsage(cpu0);
  const rps = Math.round(requests / ((performance.now() - startMs) / 1_000));
  const userUs = cpu.user / requests;
  if (userUs < best.userUs) best = { requests, rps, userUs, systemUs: cpu.system / requests };
}
loop.close();
console.log(JSON.stringify({
  script: script || "fixed",
  endpoints,
  requests: best.requests,
  rps: best.rps,
  userUsPerRequest: +best.userUs.toFixed(3),
  systemUsPerRequest: +best.systemUs.toFixed(3),
}));
