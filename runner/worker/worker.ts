/**
 * @module
 * Entry module of a load worker isolate: announces it is ready (so module loading never eats into the
 * schedule), starts its share of the load at the common start time, streams interval samples, and
 * reports its summary or a failure. All load logic lives in `run_load.ts`.
 */
/// <reference lib="deno.worker" />
import type { MainToWorker, WorkerToMain } from "./protocol.ts";
import { type LoadRun, startLoad } from "../load/run_load.ts";

const post = (msg: WorkerToMain) => self.postMessage(msg);
let run: LoadRun | null = null;

self.onmessage = (event: MessageEvent<MainToWorker>) => {
  const msg = event.data;
  switch (msg.type) {
    case "start": {
      const { workerIndex } = msg;
      run = startLoad({
        config: msg.config,
        workerIndex,
        workerCount: msg.workerCount,
        startMs: msg.startAtEpochMs - performance.timeOrigin,
        onSamples: (samples) => post({ type: "samples", workerIndex, samples }),
        onFlows: (flows) => post({ type: "flows", workerIndex, flows }),
      });
      run.done.then(
        (summary) => post({ type: "done", workerIndex, summary }),
        (err) =>
          post({ type: "failed", workerIndex, message: err instanceof Error ? err.message : String(err) }),
      );
      break;
    }
    case "stop":
      run?.stop();
      break;
  }
};

post({ type: "ready" });
