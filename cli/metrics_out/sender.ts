/**
 * @module
 * One metrics output's delivery: a bounded queue of points POSTed in batches, at most once a second.
 */
import { defined } from "../../validation/defined.ts";
import type { ExportPoint } from "../../results/export/export_point.ts";
import type { ExportSummary } from "../../results/export/summary.ts";
import { sleepUnlessAborted } from "../../system/sleep.ts";
import type { MetricsOutput } from "../../results/export/metrics_output.ts";
import { terminalSafe } from "../../validation/terminal_text.ts";
import { credentialForms, redactKnown } from "../../results/redact.ts";
import { isSecretName } from "../../results/secret_finder.ts";

/** A request body and its headers, for one batch. */
export interface EncodedBatch {
  body: Uint8Array<ArrayBuffer> | string;
  headers: Record<string, string>;
}

/** A point holds a whole histogram (~30 KB): the queue holds 600 (~2.5 min, ~20 MB), keeping the newest. */
export const DEFAULT_SENDER_OPTIONS = {
  capacity: 600, // points held at most; beyond, the oldest is dropped
  maxBatch: 600, // points per POST
  retries: 3, // after the first failed attempt
  backoffMs: 250, // the first; doubled on each retry
  timeoutMs: 5_000,
  minGapMs: 1_000, // between two POSTs while the load runs
};
export type SenderOptions = typeof DEFAULT_SENDER_OPTIONS;

/** Queues points for one output and sends them; `close` flushes and returns what happened. */
export class OutputSender {
  readonly #queue: ExportPoint[] = [];
  readonly #stats = { intervalsSent: 0, intervalsDropped: 0, intervalsFailed: 0, posts: 0, retries: 0 };
  #lastError: string | undefined;
  #wake: (() => void) | null = null;
  /** Aborted by `close`: no more pauses between POSTs. */
  readonly #hurry = new AbortController();
  /** Aborted at the flush's deadline: whatever is under way stops. */
  readonly #stop = new AbortController();
  readonly #loop: Promise<void>;
  /** The credentials this output sends, in every form an error text could echo them. */
  readonly #secrets: string[];

  constructor(
    readonly output: MetricsOutput,
    readonly encode: (points: ExportPoint[]) => EncodedBatch,
    readonly opts: SenderOptions = DEFAULT_SENDER_OPTIONS,
  ) {
    this.#secrets = Object.entries(output.headers).filter(([name]) => isSecretName(name))
      .flatMap(([, value]) => credentialForms(value));
    this.#loop = this.#run();
  }

  /** Queues points (never waits); a full queue drops its oldest. */
  push(points: ExportPoint[]): void {
    for (const point of points) {
      if (this.#queue.length >= this.opts.capacity) {
        this.#queue.shift();
        this.#stats.intervalsDropped++;
      }
      this.#queue.push(point);
    }
    this.#wake?.();
  }

  /** Counts points that never reached this queue (the exporter's own inbox overflowed). */
  countDropped(points: number): void {
    this.#stats.intervalsDropped += points;
  }

  /** Sends what is queued until `deadlineMs` (performance.now() time), then stops; the rest is dropped. */
  async close(deadlineMs: number): Promise<ExportSummary> {
    this.#hurry.abort();
    this.#wake?.();
    const timer = setTimeout(() => this.#stop.abort(), Math.max(0, deadlineMs - performance.now()));
    try {
      await this.#loop;
    } finally {
      clearTimeout(timer);
    }
    this.#stats.intervalsDropped += this.#queue.splice(0).length;
    return {
      kind: this.output.kind,
      url: this.output.url,
      ...this.#stats,
      ...defined({ lastError: this.#lastError }),
    };
  }

  async #run(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      if (this.#queue.length === 0) {
        if (this.#hurry.signal.aborted) return;
        await new Promise<void>((resolve) => this.#wake = resolve);
        this.#wake = null;
        continue;
      }
      const batch = this.#queue.splice(0, this.opts.maxBatch);
      await this.#deliver(batch);
      await sleepUnlessAborted(this.opts.minGapMs, this.#hurry.signal);
    }
  }

  /** POSTs one batch, retrying with backoff; counts it sent or failed. */
  async #deliver(batch: ExportPoint[]): Promise<void> {
    let encoded: EncodedBatch;
    try {
      encoded = this.encode(batch);
    } catch (err) {
      this.#fail(batch, `cannot encode: ${(err as Error).message}`);
      return;
    }
    for (let attempt = 0; attempt <= this.opts.retries && !this.#stop.signal.aborted; attempt++) {
      if (attempt > 0) {
        this.#stats.retries++;
        await sleepUnlessAborted(this.opts.backoffMs * 2 ** (attempt - 1), this.#stop.signal);
        if (this.#stop.signal.aborted) break;
      }
      const outcome = await this.#post(encoded);
      if (outcome === "ok") {
        this.#stats.intervalsSent += batch.length;
        return;
      }
      if (outcome === "refused") break;
    }
    this.#fail(batch);
  }

  #fail(batch: ExportPoint[], error?: string): void {
    this.#stats.intervalsFailed += batch.length;
    if (error !== undefined) this.#setError(error);
  }

  /** Keeps `error`, cleaned of control characters, the credentials sent and secret values, and capped. */
  #setError(error: string): void {
    const safe = terminalSafe(error).replace(/\s+/g, " ").trim();
    this.#lastError = redactKnown(safe, this.#secrets).slice(0, MAX_ERROR_CHARS);
  }

  /** One POST: "ok" (2xx), "retry" (network error, 5xx, 429), "refused" (other 4xx: retrying can't help). */
  async #post(encoded: EncodedBatch): Promise<"ok" | "retry" | "refused"> {
    this.#stats.posts++;
    try {
      const response = await fetch(this.output.url, {
        method: "POST",
        body: encoded.body,
        headers: { ...encoded.headers, ...this.output.headers },
        signal: AbortSignal.any([this.#stop.signal, AbortSignal.timeout(this.opts.timeoutMs)]),
        // A redirect is an error: fetch would send the body and credentials again to each hop.
        redirect: "manual",
      });
      if (response.ok) return (await response.body?.cancel(), "ok");
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        this.#setError(redirectError(response));
        return "refused";
      }
      const text = await errorText(response);
      this.#setError(`HTTP ${response.status}${text ? `: ${text}` : ""}`);
      return response.status >= 500 || response.status === 429 ? "retry" : "refused";
    } catch (err) {
      this.#setError(
        this.#stop.signal.aborted ? "the flush at the end ran out of time" : fetchErrorText(err),
      );
      return "retry";
    }
  }
}

/** Why a POST got no answer, as the OS says it ("Connection refused (os error 111)"). */
export function fetchErrorText(err: unknown): string {
  let reason = err as Error;
  while (reason?.cause instanceof Error) reason = reason.cause;
  const text = String(reason?.message ?? err).split("\n")[0];
  const os = /[^:]*\(os error \d+\)/.exec(text)?.[0].trim();
  return os ?? text.replace(/^error sending request for url \(.*?\): (?:client error \(\w+\): )?/, "");
}

/** A 3xx as one failure: the status, where it pointed and that metrics POSTs do not follow redirects. */
function redirectError(response: Response): string {
  const location = response.headers.get("location");
  const to = location ? ` to ${location}` : "";
  return `HTTP ${response.status} redirect${to}: metrics POSTs do not follow redirects (the body and ` +
    "credentials would be sent again); give the receiver's final URL";
}

/** Characters of an error kept: a status and the first words of the receiver's message. */
const MAX_ERROR_CHARS = 210;

/** How much of an error answer is read: its first words are the message; a receiver may send megabytes. */
const MAX_ERROR_BYTES = 4096;

/** The start of an error answer's text; the rest is not read (cancelled), so memory and time stay bounded. */
async function errorText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "", size = 0;
  try {
    while (size < MAX_ERROR_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      text += decoder.decode(value.subarray(0, MAX_ERROR_BYTES), { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}
