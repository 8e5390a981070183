/**
 * @module
 * The per-endpoint part of a worker's recorder (runs of several endpoints). HOT PATH: typed arrays by index;
 * the run's histogram is the endpoints' sum. A script's endpoints are added as sent, up to `MAX_ENDPOINTS`.
 */
import { failedSlotsOf, STATUS_SLOTS, statusSlotOf } from "../../results/schema/keys.ts";
import type { ErrorKind } from "../../results/mod.ts";
import { createHistogram, encodeHistogram, type Histogram } from "../../results/histogram.ts";
import { type EndpointSample, ERROR_KINDS } from "./sample.ts";
import { takeStatusCodes } from "./tallies.ts";
import { MAX_ENDPOINTS, OTHER_ENDPOINT, taggedKey } from "../endpoint_limits.ts";
import { shownName } from "../../validation/shown_name.ts";
import { defined } from "../../validation/defined.ts";
import { grown } from "../../system/large_arrays.ts";

type Tags = Readonly<Record<string, string>>;
type Expected = EndpointSample["expectedStatuses"];

/** A run-time endpoint's tags as outputs keep names (one line, at most 384 characters); once per endpoint. */
function shownTags(tags: Tags): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).map(([k, v]) => [shownName(k), shownName(String(v))]));
}

/** Counts of `count` endpoints for the open interval. */
export class EndpointRecorder {
  #count: number;
  #requests: Uint32Array;
  #statuses: Uint32Array;
  #errors: Uint32Array;
  #bytesRead: Float64Array;
  #bytesWritten: Float64Array;
  readonly #histograms: Histogram[];
  /** 1 for an endpoint with any event in the open interval. */
  #touched: Uint8Array;
  /** Names added at run time (`indexOf`), index for index; null for a table fixed before the load. */
  readonly #names: string[] | null;
  /** The method of each run-time endpoint's first request, index for index with `#names`. */
  readonly #methods: Array<string | undefined> = [];
  /** The user tags of each run-time endpoint (undefined: none), index for index with `#names`. */
  readonly #tags: Array<Tags | undefined> = [];
  /** The statuses each run-time endpoint's requests expect when their own (k6's `responseCallback`). */
  readonly #expected: Array<Expected> = [];
  /** Per such endpoint, its failed status slots (recorder.ts); undefined: the isolate's. */
  readonly failedSlots: Array<Uint8Array | undefined> = [];
  readonly #indexes = new Map<string, number>();
  /** Per frozen tags object (a k6 scenario's, reused), its names' indexes: no key made per request. */
  readonly #byTags = new WeakMap<object, Map<string, number>>();

  /** `count` endpoints fixed before the load, or (`named`) none yet: names are added as they come. */
  constructor(count: number, named = false) {
    this.#count = count;
    this.#names = named ? [] : null;
    this.#requests = new Uint32Array(count);
    this.#statuses = new Uint32Array(count * STATUS_SLOTS);
    this.#errors = new Uint32Array(count * ERROR_KINDS.length);
    this.#bytesRead = new Float64Array(count);
    this.#bytesWritten = new Float64Array(count);
    this.#histograms = Array.from({ length: count }, createHistogram);
    this.#touched = new Uint8Array(count);
  }

  /** Endpoint `name` with `tags` (each tag set its own, as in k6; another method: another), added on need. */
  indexOf(name: string, tags?: Tags, method?: string, expected?: Expected): number {
    const index = this.#indexOf(name, tags, method, expected), first = this.#methods[index];
    if (first === method || first === undefined || method === undefined) return index;
    const key = taggedKey(name, tags, expected, method);
    return this.#indexes.get(key) ?? this.#add(name, key, tags, method, expected);
  }

  #indexOf(name: string, tags?: Tags, method?: string, expected?: Expected): number {
    if (expected !== undefined) {
      const key = taggedKey(name, tags, expected);
      return this.#indexes.get(key) ?? this.#add(name, key, tags, method, expected);
    }
    if (tags === undefined) return this.#indexes.get(name) ?? this.#add(name, name, undefined, method);
    const frozen = Object.isFrozen(tags);
    let names = frozen ? this.#byTags.get(tags) : undefined;
    if (frozen && names === undefined) this.#byTags.set(tags, names = new Map());
    const seen = names?.get(name);
    if (seen !== undefined) return seen;
    const key = taggedKey(name, tags);
    const index = this.#indexes.get(key) ?? this.#add(name, key, tags, method);
    names?.set(name, index);
    return index;
  }

  /** A new run-time endpoint under `key` (its name, or its name and tags). */
  #add(name: string, key: string, tags?: Tags, method?: string, expected?: Expected): number {
    const names = this.#names;
    if (names === null) return 0;
    if (names.length >= MAX_ENDPOINTS && name !== OTHER_ENDPOINT) return this.indexOf(OTHER_ENDPOINT);
    const index = names.push(name) - 1;
    this.#tags[index] = key === name || tags === undefined ? undefined : shownTags(tags);
    this.#methods[index] = method;
    this.#expected[index] = expected;
    this.failedSlots[index] = expected && failedSlotsOf(expected);
    this.#indexes.set(key, index);
    this.#grow(names.length);
    return index;
  }

  /** Room for `count` endpoints: arrays copied into larger ones (a few times per run at most). */
  #grow(count: number): void {
    const k = ERROR_KINDS.length;
    if (count > this.#requests.length) {
      const room = Math.max(count, this.#requests.length * 2, 4);
      this.#requests = grown(this.#requests, new Uint32Array(room));
      this.#statuses = grown(this.#statuses, new Uint32Array(room * STATUS_SLOTS));
      this.#errors = grown(this.#errors, new Uint32Array(room * k));
      this.#bytesRead = grown(this.#bytesRead, new Float64Array(room));
      this.#bytesWritten = grown(this.#bytesWritten, new Float64Array(room));
      this.#touched = grown(this.#touched, new Uint8Array(room));
    }
    while (this.#histograms.length < count) this.#histograms.push(createHistogram());
    this.#count = count;
  }

  /** A response of endpoint `e`; `latencyUs` already clamped. */
  response(e: number, status: number, latencyUs: number): void {
    if (e < 0 || e >= this.#count) e = this.#names === null ? 0 : this.indexOf(OTHER_ENDPOINT);
    this.#requests[e]++;
    this.#statuses[e * STATUS_SLOTS + statusSlotOf(status)]++;
    this.#histograms[e].recordValue(latencyUs);
    this.#touched[e] = 1;
  }

  /** An answered WebSocket message of endpoint `e` (a flow's ws step): no status; `latencyUs` clamped. */
  message(e: number, latencyUs: number): void {
    if (e < 0 || e >= this.#count) e = this.#names === null ? 0 : this.indexOf(OTHER_ENDPOINT);
    this.#requests[e]++;
    this.#histograms[e].recordValue(latencyUs);
    this.#touched[e] = 1;
  }

  /** A failed request of endpoint `e` (`kindIndex` in `ERROR_KINDS` order); negative `e`: no endpoint. */
  error(e: number, kindIndex: number): void {
    if (e < 0 || e >= this.#count) return;
    this.#errors[e * ERROR_KINDS.length + kindIndex]++;
    this.#touched[e] = 1;
  }

  bytesRead(e: number, n: number): void {
    if (e < 0 || e >= this.#count) return;
    this.#bytesRead[e] += n;
    this.#touched[e] = 1;
  }

  bytesWritten(e: number, n: number): void {
    if (e < 0 || e >= this.#count) return;
    this.#bytesWritten[e] += n;
    this.#touched[e] = 1;
  }

  /** The samples of the endpoints with events; their histograms are added into `total`; all reset. */
  take(total: Histogram): EndpointSample[] {
    const out: EndpointSample[] = [];
    for (let e = 0; e < this.#count; e++) {
      if (this.#touched[e] === 0) continue;
      const h = this.#histograms[e];
      let histogram: string | null = null;
      if (h.totalCount > 0) {
        total.add(h);
        histogram = encodeHistogram(h);
        h.reset();
      }
      out.push({
        endpoint: e,
        ...defined({ name: this.#names?.[e], tags: this.#tags[e], method: this.#methods[e] }),
        ...defined({ expectedStatuses: this.#expected[e] }),
        requests: this.#requests[e],
        statusCodes: takeStatusCodes(this.#statuses.subarray(e * STATUS_SLOTS, (e + 1) * STATUS_SLOTS)),
        errors: this.#takeErrors(e),
        bytesRead: this.#bytesRead[e],
        bytesWritten: this.#bytesWritten[e],
        histogram,
      });
      this.#requests[e] = this.#bytesRead[e] = this.#bytesWritten[e] = 0;
      this.#touched[e] = 0;
    }
    return out;
  }

  #takeErrors(e: number): Partial<Record<ErrorKind, number>> {
    const out: Partial<Record<ErrorKind, number>> = {};
    const counts = this.#errors.subarray(e * ERROR_KINDS.length, (e + 1) * ERROR_KINDS.length);
    for (let k = 0; k < ERROR_KINDS.length; k++) if (counts[k] !== 0) out[ERROR_KINDS[k]] = counts[k];
    counts.fill(0);
    return out;
  }
}
