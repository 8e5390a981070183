/**
 * @module
 * Entry module of a load worker isolate: announces it is ready (so module loading never eats into the
 * schedule), prepares its share on "prepare" (generator warm-up, pre-connect pool: all before t0),
 * starts it at the common start time on "start", streams interval samples, and reports its summary or
 * a failure, or that its isolate is ending on its own (a script's `Deno.exit`), on a channel a script
 * cannot post on (script/script_channel.ts), and marks a heartbeat while its event loop turns. All load
 * logic lives in `run_load.ts` (before t0) and `run_prepared.ts` (from t0).
 */
/// <reference lib="deno.worker" />
import { HEARTBEAT_MS, type MainToWorker, type WorkerToMain } from "./protocol.ts";
import { takeMainChannel } from "../script/channel.ts";
import { restoreWorkerNames } from "../script/worker_scope.ts";
import { setRunCounters } from "../script/run_counters.ts";
import { runEnding } from "../script/run_end.ts";
import { prepareLoad } from "../load/run_load.ts";
import { knownSecrets } from "../../results/redact.ts";
import type { LoadRun, PreparedLoad } from "../load/load_run_types.ts";

// This isolate is a node:worker_threads worker (load_worker.ts): `self` and `WorkerGlobalScope` are put
// back before any script loads.
restoreWorkerNames();
const post = takeMainChannel<WorkerToMain>();
let workerIndex = 0;
let prepared: PreparedLoad | null = null;
let run: LoadRun | null = null;

const failed = (err: unknown) =>
  post({ type: "failed", workerIndex, message: err instanceof Error ? err.message : String(err) });

self.onmessage = (event: MessageEvent<MainToWorker>) => {
  const msg = event.data;
  switch (msg.type) {
    case "prepare": {
      workerIndex = msg.workerIndex;
      beatInto(msg.heartbeat);
      setRunCounters(msg.counters);
      prepareLoad({
        config: msg.config,
        workerIndex,
        workerCount: msg.workerCount,
        warmupSinkUrl: msg.warmupSinkUrl,
        heartbeat: msg.heartbeat,
        onSamples: (samples) => post({ type: "samples", workerIndex, samples }),
        onFlows: (flows) => post({ type: "flows", workerIndex, flows }),
      }).then((load) => {
        prepared = load;
        post({ type: "prepared", workerIndex, summary: load.summary });
      }, failed);
      break;
    }
    case "start": {
      if (prepared === null) return failed(new Error("start before prepare"));
      run = prepared.start(msg.startAtEpochMs - performance.timeOrigin);
      run.done.then((summary) => {
        runEnding();
        post({ type: "done", workerIndex, summary, secrets: [...knownSecrets()] });
      }, failed);
      break;
    }
    case "steer":
      run?.steer(msg.change);
      break;
    case "stop":
      run?.stop();
      break;
  }
};

/**
 * Marks the time and the sessions in progress into `heartbeat` on every turn of a timer: it stops when
 * code never yields the loop.
 */
function beatInto(heartbeat: SharedArrayBuffer): void {
  const beat = new Float64Array(heartbeat);
  const mark = () => {
    beat[0] = performance.timeOrigin + performance.now();
    beat[1] = run?.inProgress() ?? 0;
  };
  mark();
  setInterval(mark, HEARTBEAT_MS);
}

// `Deno.exit` in a worker ends its isolate only, with no word to the main side but this event; a
// script's `self.close()` has not even that, so it says so before closing. What was counted goes first.
const exiting = () => {
  run?.flush();
  post({ type: "exited", workerIndex });
};
self.addEventListener("unload", exiting);
const close = self.close.bind(self);
self.close = () => {
  exiting();
  close();
};

post({ type: "ready" });
