/**
 * @module
 * The loopback echo the generator's WebSocket warm-up (generator_warmup.ts) sends its burst to, never the
 * target. It lives in a worker isolate of its own (ws_warmup_sink_worker.ts): a WebSocket run's pumps
 * block their thread while waiting for completions, so only a sink on another thread is answered while
 * they do. The pool starts it on the main isolate and hands its URL to the load workers (a worker started
 * from a worker takes about half a second longer to start than one from the main isolate); a load run
 * without the pool starts its own. Closing terminates the isolate, which closes its listener and sockets.
 */
import type { AttackConfig } from "../config.ts";
import type { Sink } from "./warmup_sink.ts";

/** Longest the sink's isolate may take to start listening; past it the run starts cold. */
const SINK_START_TIMEOUT_MS = 3_000;

/**
 * The echo for `config`'s warm-up when it sends WebSocket messages (a ws: or wss: run, warm-up on, not
 * a hold: pings on idle connections have no hot path to warm), else null; null too when it cannot
 * start, and the run starts cold.
 */
export function wsSinkFor(config: AttackConfig): Promise<Sink | null> {
  const warms = config.generatorWarmup && /^wss?:/.test(config.url) && (config.ws?.pingIntervalMs ?? 0) === 0;
  return warms ? startWsSink().catch(() => null) : Promise.resolve(null);
}

/** Starts the echo; resolves with its `ws://` URL, or rejects when it cannot listen in time. */
export function startWsSink(): Promise<Sink> {
  const worker = new Worker(new URL("./ws_warmup_sink_worker.ts", import.meta.url).href, { type: "module" });
  const close = () => worker.terminate();
  return new Promise<Sink>((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer);
      close();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new Error("the WebSocket warm-up sink did not start")),
      SINK_START_TIMEOUT_MS,
    );
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(`the WebSocket warm-up sink failed: ${event.message}`));
    };
    worker.onmessage = (event: MessageEvent<{ port: number }>) => {
      clearTimeout(timer);
      resolve({ url: `ws://127.0.0.1:${event.data.port}/`, close });
    };
  });
}
