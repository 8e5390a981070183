/**
 * @module
 * The loopback echo of the WebSocket warm-up, in an isolate of its own (a WebSocket run's pumps block their
 * thread). The pool starts it on the main isolate (faster than from a worker) and hands workers its URL.
 */
import type { AttackConfig } from "../config.ts";
import type { Sink } from "./warmup_sink.ts";

/** Longest the sink's isolate may take to start listening; past it the run starts cold. */
const SINK_START_TIMEOUT_MS = 3_000;

/** The echo for `config`'s warm-up when it sends messages (not hold); null otherwise or on failure. */
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
