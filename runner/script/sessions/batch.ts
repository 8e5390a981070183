/**
 * @module
 * A session's batch (`s.batch`, k6's `http.batch`): which of its requests go now and which wait. At most
 * `parallel` in flight at once and `perHost` to one origin (k6's `batch`, default 20, and `batchPerHost`,
 * default 6); the target's may be fewer (`targetMax`: one on an HTTP/2 stream slot, the session's only
 * lane to it). A request that does not fit waits in order and is sent (encoded then, so it carries the
 * cookies of the responses before it) as soon as one in flight ends with room for it; none is sent once
 * the run ended (the session is cut).
 */
import type { OriginPlace } from "./origins.ts";
import type { RequestOptions, Response } from "../session.ts";

/** k6's defaults: `batch` and `batchPerHost`. */
export const BATCH_PARALLEL = 20;
export const BATCH_PER_HOST = 6;

/** A request of the batch, as the script asked it. */
export interface BatchRequest {
  readonly place: OriginPlace;
  readonly method: string;
  readonly target: string;
  readonly options: RequestOptions;
}

/** What sends a batch's request (the session): its response, once `ended` has been told. */
export type BatchSend = (request: BatchRequest, batch: SessionBatch) => Promise<Response>;

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

  /** Sends `request` now when there is room, else once there is. */
  request(request: BatchRequest): Promise<Response> {
    if (this.#fits(request.place)) return this.#start(request);
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
