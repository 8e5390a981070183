/**
 * @module
 * Starts the benchmark target: Debian's nginx with `bench/nginx.conf`, in its own temp prefix (config,
 * pid, error log, temp paths) on a free loopback port, optionally pinned to one CPU with `taskset`, and
 * reads the count of requests it served from its `stub_status` page on a second port. Setup failures are
 * `BenchSetupError`s carrying nginx's error log as the hint.
 */
import { freePort, waitForPort } from "../system/ports.ts";

/** nginx could not be started; `message` says why and what to check. */
export class BenchSetupError extends Error {
  override name = "BenchSetupError";
}

export interface RunningNginx {
  url: string;
  /** The master's pid (its workers are its children): the bench reads the target's CPU time from it. */
  pid: number;
  /**
   * Requests nginx has served so far (its `stub_status` count, which includes the one asking), or null
   * when the page cannot be read.
   */
  requestsServed(): Promise<number | null>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 5_000;

/** Serving HTTPS: `directives` are the server block's `ssl_*` lines (certificate, key, client checks). */
export interface NginxTls {
  directives: string;
}

/** Connections nginx's worker takes unless told more (`startNginx`'s `connections`). */
const DEFAULT_WORKER_CONNECTIONS = 4096;

/**
 * Starts nginx; `pinPrefix` is e.g. `["taskset", "-c", "0"]`, or `[]` to run unpinned. With `tls` it
 * listens with `ssl` and the URL is `https://localhost:PORT/`. `http2`: the listener speaks HTTP/2
 * (nginx 1.22's `listen ... http2`): by ALPN over TLS, with prior knowledge (h2c) on a plain one.
 * `connections`: the most its worker holds at once (the crowd bench's crowd), its open files raised to
 * match (8192, or the connections and a few more for its logs and listeners). `workers`: its worker
 * processes (1, as the bench's target; more where a test needs a server with more room than the generator).
 * `alsoListen`: more loopback addresses it listens on, at the same port and as the first (TLS, HTTP/2),
 * for a peer that cannot spread its connections over source addresses to spread them over instead.
 */
export async function startNginx(
  nginxPath: string,
  pinPrefix: string[],
  tls?: NginxTls,
  http2 = false,
  connections = DEFAULT_WORKER_CONNECTIONS,
  workers = 1,
  alsoListen: string[] = [],
): Promise<RunningNginx> {
  const prefix = await Deno.makeTempDir({ prefix: "loadlab-bench-nginx-" });
  // Workers run as nobody when started by root; let them reach the temp paths inside the prefix.
  await Deno.chmod(prefix, 0o755);
  const port = freePort();
  let statusPort = freePort();
  while (statusPort === port) statusPort = freePort();
  const template = await Deno.readTextFile(new URL("./nginx.conf", import.meta.url));
  const confPath = `${prefix}/nginx.conf`;
  await Deno.writeTextFile(
    confPath,
    template.replaceAll("__PREFIX__", prefix).replaceAll("__PORT__", `${port}`)
      .replaceAll("__STATUS_PORT__", `${statusPort}`)
      .replaceAll("__WORKER_CONNECTIONS__", `${connections}`).replaceAll("__WORKERS__", `${workers}`)
      .replaceAll(
        "__NOFILE__",
        `${Math.max(8192, connections + 64)}`,
      )
      .replace("__SSL__", `${tls ? "ssl" : ""}${http2 ? " http2" : ""}`)
      .replace(
        "# __ALSO_LISTEN__",
        alsoListen.map((a) => `listen ${a}:${port} ${tls ? "ssl " : ""}${http2 ? "http2 " : ""}backlog=4096;`)
          .join("\n    "),
      )
      .replace(
        "# __TLS__",
        tls?.directives ?? "",
      ),
  );
  const argv = [...pinPrefix, nginxPath, "-p", prefix, "-c", confPath, "-e", `${prefix}/error.log`];
  const child = new Deno.Command(argv[0], { args: argv.slice(1), stdout: "null", stderr: "piped" }).spawn();
  const stderr = new Response(child.stderr).text();
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const stop = async () => {
    if (!exited) child.kill("SIGTERM");
    await status;
    await stderr;
    await Deno.remove(prefix, { recursive: true }).catch(() => {});
  };
  if (!(await waitForPort("127.0.0.1", port, READY_TIMEOUT_MS, () => exited))) {
    await stop();
    const log = (await stderr.catch(() => "")).trim().split("\n").at(-1) ?? "";
    const why = exited ? "nginx exited" : `no answer within ${READY_TIMEOUT_MS} ms`;
    throw new BenchSetupError(`nginx did not start on 127.0.0.1:${port}: ${log || why}`);
  }
  return {
    url: tls ? `https://localhost:${port}/` : `http://127.0.0.1:${port}/`,
    pid: child.pid,
    requestsServed: () => requestsServed(`http://127.0.0.1:${statusPort}/status`),
    stop,
  };
}

/**
 * The `requests` figure of a `stub_status` page: its third line holds accepts, handled and requests
 * (`Active connections: 1\nserver accepts handled requests\n 5 5 12\nReading: ...`).
 */
export function parseStubStatus(text: string): number | null {
  const m = /server accepts handled requests\s*\n\s*\d+\s+\d+\s+(\d+)/.exec(text);
  return m === null ? null : Number(m[1]);
}

async function requestsServed(statusUrl: string): Promise<number | null> {
  try {
    const res = await fetch(statusUrl, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? parseStubStatus(await res.text()) : (await res.body?.cancel(), null);
  } catch {
    return null;
  }
}
