/**
 * @module
 * A session's batch (`s.batch`, k6's `http.batch`): at most `parallel` requests in flight and `perHost`
 * to one origin; the rest wait in order, encoded when sent so they carry earlier responses' cookies.
 */
import type { OriginPlace } from "./origins.ts";
import type { RequestOptions, Response } from "../session.ts";

/** k6's defaults: `batch` and `batchPerHost`. */
export const BATCH_PARALLEL = 20;
export const BATCH_PER_HOST = 6;

export interface BatchRequest {
  readonly place: OriginPlace;
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
}

/** What sends a batch's request (the session): its response, once `ended` has been told. */
type BatchSend = (request: BatchRequest, batch: SessionBatch) => Promise<Response>;

interface Waiting extends BatchRequest {
  resolve(response: Promise<Response>): void;
}

export class SessionBatch {
  #inFlight = 0;
  readonly #perOrigin = new Map<OriginPlace, number>();
  readonly #waiting: Waiting[] = [];

  constructor(
    readonly parallel: number,
    readonly perHost: number,
    readonly targetMax: number,
    readonly send: BatchSend,
    readonly stopped: () => boolean,
  ) {}

  /** `free`: sent now whatever the limits, but on an HTTP/2 target's one lane (k6's asyncRequest). */
  request(request: BatchRequest, free = false): Promise<Response> {
    const lane = request.place.target && this.targetMax === 1;
    if ((free && !lane) || this.#fits(request.place)) return this.#start(request);
    return new Promise((resolve) => this.#waiting.push({ ...request, resolve }));
  }

  /** One of the batch's requests to `place` ended: the first waiting one that fits now goes. */
  ended(place: OriginPlace): void {
    this.#inFlight--;
    this.#perOrigin.set(place, this.#perOrigin.get(place)! - 1);
    if (this.stopped()) return;
    for (let k = 0; k < this.#waiting.length; k++) {
      const next = this.#waiting[k];
      if (!this.#fits(next.place)) continue;
      this.#waiting.splice(k, 1);
      next.resolve(this.#start(next));
      return;
    }
  }

  #fits(place: OriginPlace): boolean {
    const max = place.target ? Math.min(this.perHost, this.targetMax) : this.perHost;
    return this.#inFlight < this.parallel && (this.#perOrigin.get(place) ?? 0) < max;
  }

  #start(request: BatchRequest): Promise<Response> {
    this.#inFlight++;
    this.#perOrigin.set(request.place, (this.#perOrigin.get(request.place) ?? 0) + 1);
    return this.send(request, this);
  }
}
