/**
 * @module
 * A load worker isolate's entry: prepare, start, samples and heartbeat, on a channel scripts cannot post on.
 */
/// <reference lib="deno.worker" />
import { HEARTBEAT_MS, type MainToWorker, type WorkerToMain } from "./protocol.ts";
import { restoreWorkerNames, takeMainChannel } from "../script/worker_scope.ts";
import { runEnding, setRunCounters } from "../script/run_state.ts";
import { prepareLoad } from "../load/run_load.ts";
import { knownSecrets } from "../../results/redact.ts";
import type { LoadRun, PreparedLoad } from "../load/load_run_types.ts";
import { passInputs } from "../script/isolate_inputs.ts";
import { runtimeResources } from "../../system/descriptors.ts";

// A node:worker_threads worker: `self` and `WorkerGlobalScope` are put back before any script loads.
restoreWorkerNames();
const post = takeMainChannel<WorkerToMain>();
let workerIndex = 0;
let prepared: PreparedLoad | null = null;
let run: LoadRun | null = null;
let beating: ReturnType<typeof setInterval> | undefined;
// The runtime's resource table: what the isolate holds before any run (stdio, its ports) is no run's.
const heldBefore = new Set(runtimeResources().map(([rid]) => rid));

const failed = (err: unknown) =>
  post({ type: "failed", workerIndex, message: err instanceof Error ? err.message : String(err) });

self.onmessage = (event: MessageEvent<MainToWorker>) => {
  const msg = event.data;
  switch (msg.type) {
    case "prepare": {
      workerIndex = msg.load.workerIndex;
      beatInto(msg.load.heartbeat);
      setRunCounters(msg.counters);
      passInputs(msg.inputs, true);
      prepareLoad({
        ...msg.load,
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
      run.done.then(async (summary) => {
        await runEnding();
        const open = runtimeResources().filter(([rid]) => !heldBefore.has(rid)).length;
        post({ type: "done", workerIndex, summary, secrets: [...knownSecrets()], open });
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

/** Marks time and sessions in progress into the run's `heartbeat` on a timer: stops if code never yields. */
function beatInto(heartbeat: SharedArrayBuffer): void {
  clearInterval(beating);
  const beat = new Float64Array(heartbeat);
  const mark = () => {
    beat[0] = performance.timeOrigin + performance.now();
    beat[1] = run?.inProgress() ?? 0;
  };
  mark();
  beating = setInterval(mark, HEARTBEAT_MS);
}

// `Deno.exit` leaves only the unload event; a script's `self.close()` not even that, so it says so first.
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
