/**
 * The parts the run and the warm-up burst build one way. A model's context is an object literal the
 * executors read on every send: built with its fields in two orders (the burst's had `pool` before
 * `newConnection`), the two contexts had two maps and the burst's optimized code deoptimized on the
 * run's ("wrong map" in the closed loop's `take`). The context's fields come out in one order whatever
 * order they are given in, and so does the recorder's origin: set after construction in both.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { parseAttackConfig } from "../config.ts";
import { connectionShared } from "../http/load_connection.ts";
import { RequestMix } from "../http/request.ts";
import { connectGateOf, type ContextFields, loadContextOf, recorderOf } from "./generator_warmup.ts";
import { WorkerSteering } from "./steer.ts";

const CONTEXT_ORDER = [
  "config",
  "shared",
  "workerIndex",
  "workerCount",
  "startMs",
  "endMs",
  "stopRequested",
  "newConnection",
  "pool",
  "streamsPerConnection",
  "concurrency",
  "arrival",
  "steer",
];

Deno.test("a model's context has its fields in one order, whatever order they are given in", () => {
  const config = parseAttackConfig({
    url: "http://127.0.0.1:9/",
    model: "connections",
    connections: 2,
    durationMs: 1000,
  });
  const recorder = recorderOf(config);
  const shared = connectionShared({
    hostname: "127.0.0.1",
    port: 9,
    transport: () => Promise.reject(new Error("never dialled")),
    recorder,
    mix: new RequestMix(new URL(config.url), config.requestMix, 0),
    timeoutMs: 1000,
    maxHeaderBytes: config.maxHeaderBytes,
    connectGate: connectGateOf(config),
    log: null,
    stopping: false,
  });
  const fields: ContextFields = {
    config,
    shared,
    workerIndex: 0,
    workerCount: 1,
    startMs: 0,
    endMs: 1000,
    newConnection: () => {
      throw new Error("not opened here");
    },
    pool: [],
    streamsPerConnection: 1,
    arrival: null,
    steer: new WorkerSteering(config, 0, 1000, () => {}),
  };
  // The same fields given in reverse order (as a literal written another way would give them).
  const reversed = Object.fromEntries(Object.entries(fields).reverse()) as unknown as ContextFields;
  assertEquals(Object.keys(loadContextOf(fields)), CONTEXT_ORDER);
  assertEquals(Object.keys(loadContextOf(reversed)), CONTEXT_ORDER);
  assertEquals(loadContextOf(reversed).stopRequested, false);
  // The recorder made for either counts from the origin set after it, once.
  recorder.setOrigin(5);
  throws(() => recorder.setOrigin(6), /already set/);
});
