/**
 * @module
 * What recording per endpoint costs a worker per response, without sockets: the recorder's calls of one
 * response (its status and latency, the bytes read and written) for a 2-request mix, recorded as one
 * endpoint (the run's single histogram) or as two (runner/stats/endpoint_recorder.ts), intervals
 * closed as the run closes them. Rounds alternate the two, so a machine shared with other work slows
 * both alike; the fastest round of each is the figure least disturbed. No test asserts a speed.
 *
 *   taskset -c 1 deno run -A bench/endpoint_recording.ts [--rounds 10] [--responses 2000000]
 */
import { parseArgs } from "node:util";
import { IntervalRecorder } from "../runner/stats/recorder.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { rounds: { type: "string", default: "10" }, responses: { type: "string", default: "2000000" } },
});
const rounds = Number(values.rounds), responses = Number(values.responses);
/** Responses per simulated millisecond: 250k req/s, so an interval of 250 ms closes every 62,500. */
const PER_MS = 250;

/** One round: ns per response with `endpoints` endpoints. */
function round(endpoints: number): number {
  const originMs = 1_000;
  const recorder = new IntervalRecorder({ intervalMs: 250, originMs, uncorrected: false, endpoints });
  const startMs = performance.now();
  for (let k = 0; k < responses; k++) {
    const nowMs = originMs + 5 + k / PER_MS;
    const endpoint = endpoints === 1 ? 0 : k & 1;
    recorder.addBytesWritten(nowMs - 0.2, 60, endpoint);
    recorder.addBytesRead(nowMs, 120, endpoint);
    recorder.recordResponse(nowMs, 200, 150 + (k % 997) * (endpoint + 1), 150, endpoint);
    if (k % 12_500 === 0) recorder.drain(nowMs, false);
  }
  recorder.drain(originMs + 10 + responses / PER_MS, true);
  return ((performance.now() - startMs) * 1e6) / responses;
}

round(1), round(2); // the JIT's warm-up
const ns: Record<number, number[]> = { 1: [], 2: [] };
for (let r = 0; r < rounds; r++) for (const e of r % 2 === 0 ? [1, 2] : [2, 1]) ns[e].push(round(e));
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { minNs: +s[0].toFixed(1), medianNs: +s[Math.floor(s.length / 2)].toFixed(1) };
};
const one = stat(ns[1]), two = stat(ns[2]);
console.log(JSON.stringify({
  oneEndpoint: one,
  twoEndpoints: two,
  extraNsPerResponse: +(two.minNs - one.minNs).toFixed(1),
  load: Deno.loadavg()[0],
}));
