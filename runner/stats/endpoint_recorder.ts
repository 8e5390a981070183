/**
 * @module
 * The per-endpoint part of a worker's recorder (runner/stats/recorder.ts), used when a run has more than
 * one endpoint (runner/endpoint_table.ts). HOT PATH: counters are typed arrays indexed by the endpoint
 * index the request picker fixed when it picked the request, so a response costs a few array increments
 * and one histogram record, and nothing is allocated. A response's latency is recorded once, in its
 * endpoint's histogram: the run's histogram of the interval is the sum of the endpoints' (added when the
 * interval closes, a few times a second, not per response). Only endpoints with an event in the interval
 * go into its sample, as `EndpointSample`s (plain data, histograms encoded like the run's). A session
 * script's requests name their endpoints only as they are sent: such a recorder starts empty and adds
 * each name on first use (`indexOf`, bounded like the endpoint table: `MAX_ENDPOINTS` names, then
 * `OTHER_ENDPOINT`), and its samples carry the name, since each worker numbers its names in its own order.
 */
import { STATUS_SLOTS, statusSlotOf } from "../../results/schema/values.ts";
import type { ErrorKind } from "../../results/mod.ts";
import { createHistogram, encodeHistogram, type Histogram } from "../../results/histogram.ts";
import { type EndpointSample, ERROR_KINDS } from "./sample.ts";
import { takeStatusCodes } from "./tallies.ts";
import { MAX_ENDPOINTS, OTHER_ENDPOINT, taggedKey } from "../endpoint_limits.ts";
import { shownName } from "../../validation/shown_name.ts";

/**
 * A run-time endpoint's user tags as outputs keep them: each key and value as a name is kept (one line, no
 * control characters, at most 384 characters), as the endpoint's name is; a 1 MiB tag value was kept
 * whole in results.json and the metrics outputs, once per endpoint. Once per new endpoint, not per request.
 */
function shownTags(tags: Readonly<Record<string, string>>): Record<string, string> {
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
  /** The user tags of each run-time endpoint (undefined: none), index for index with `#names`. */
  readonly #tags: Array<Readonly<Record<string, string>> | undefined> = [];
  readonly #indexes = new Map<string, number>();
  /**
   * Per frozen tags object (one the k6 runtime reuses for every request: a scenario's tags), its names'
   * indexes, so no key is made per request; another object may change between requests and is keyed anew.
   */
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

  /**
   * The index of run-time endpoint `name` with user `tags` (k6's `{kind:html}`: one name with other tags is
   * another endpoint, as k6 keeps a submetric per tag set), added on first use; past `MAX_ENDPOINTS`,
   * `OTHER_ENDPOINT`.
   */
  indexOf(name: string, tags?: Readonly<Record<string, string>>): number {
    if (tags === undefined) return this.#indexes.get(name) ?? this.#add(name, name, undefined);
    const frozen = Object.isFrozen(tags);
    let names = frozen ? this.#byTags.get(tags) : undefined;
    if (frozen && names === undefined) this.#byTags.set(tags, names = new Map());
    const seen = names?.get(name);
    if (seen !== undefined) return seen;
    const key = taggedKey(name, tags);
    const index = this.#indexes.get(key) ?? this.#add(name, key, tags);
    names?.set(name, index);
    return index;
  }

  /** A new run-time endpoint under `key` (its name, or its name and tags). */
  #add(name: string, key: string, tags: Readonly<Record<string, string>> | undefined): number {
    const names = this.#names;
    if (names === null) return 0;
    if (names.length >= MAX_ENDPOINTS && name !== OTHER_ENDPOINT) return this.indexOf(OTHER_ENDPOINT);
    const index = names.push(name) - 1;
    this.#tags[index] = key === name ? undefined : shownTags(tags!);
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
        ...(this.#names !== null ? { name: this.#names[e] } : {}),
        ...(this.#tags[e] !== undefined ? { tags: this.#tags[e] } : {}),
        requests: this.#requests[e],
        statusCodes: takeStatusCodes(this.#statuses.subarray(e * STATUS_SLOTS, (e + 1) * STATUS_SLOTS)),
        errors: this.#takeErrors(e),
        bytesRead: this.#bytesRead[e],
        bytesWritten: this.#bytesWritten[e],
        histogram,
      });
      this.#requests[e] =
        this.#bytesRead[e] =
        this.#bytesWritten[e] =
        this.#touched[e] =
          0;
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

function grown<T extends Uint32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
