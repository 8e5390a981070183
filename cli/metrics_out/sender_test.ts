import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { freePort } from "../../system/ports.ts";
import type { ExportPoint } from "../../results/export/export_point.ts";
import { RunSeries } from "../../results/export/run_series.ts";
import { emptyIntervalCounts } from "../../results/interval_counts.ts";
import { fetchErrorText, OutputSender, type SenderOptions } from "./sender.ts";

const FAST: SenderOptions = {
  capacity: 100,
  maxBatch: 100,
  retries: 3,
  backoffMs: 10,
  timeoutMs: 2_000,
  minGapMs: 0,
};

function points(n: number): ExportPoint[] {
  const series = new RunSeries({ experiment: "t", run: "r" }, Date.now());
  return Array.from({ length: n }, (_, index) =>
    series.point({
      ...emptyIntervalCounts(),
      index,
      endEpochMs: Date.now() + index,
      errorKinds: {},
      inFlight: 0,
      connections: 0,
      histograms: [],
      late: false,
    }, []));
}

/** A receiver answering with `answer`; counts the points it got (the test encoder's body is the count). */
function receiver(answer: () => Response | Promise<Response>) {
  const got = { posts: 0, points: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.posts++;
    const response = await answer();
    if (response.ok) got.points += Number(await req.text());
    return response;
  });
  return { url: `http://127.0.0.1:${server.addr.port}/write`, got, close: () => server.shutdown() };
}

function sender(url: string, opts: Partial<SenderOptions> = {}): OutputSender {
  return new OutputSender(
    { kind: "prometheus-remote-write", url, headers: {} },
    (batch) => ({ body: String(batch.length), headers: {} }),
    { ...FAST, ...opts },
  );
}

Deno.test("sender: every point reaches a receiver that answers", async () => {
  const r = receiver(() => new Response(null, { status: 204 }));
  try {
    const s = sender(r.url);
    s.push(points(3));
    s.push(points(2));
    const summary = await s.close(performance.now() + 5_000);
    assertEquals(summary.intervalsSent, 5);
    assertEquals([summary.intervalsDropped, summary.intervalsFailed, summary.retries], [0, 0, 0]);
    assertEquals(r.got.points, 5);
  } finally {
    await r.close();
  }
});

Deno.test("sender: a receiver that is down is retried with backoff, then the points count as failed", async () => {
  const s = sender(`http://127.0.0.1:${freePort()}/api/v1/write`);
  s.push(points(4));
  const summary = await s.close(performance.now() + 5_000);
  assertEquals(summary.intervalsFailed, 4);
  assertEquals(summary.intervalsSent, 0);
  assertEquals(summary.retries, 3);
  assertEquals(summary.posts, 4);
  assertEquals(
    summary.lastError,
    "Connection refused (os error 111)",
    "the OS reason, not fetch's own words",
  );
});

Deno.test("fetchErrorText: the OS reason, else what follows the client's prefix, never 'fetch failed'", () => {
  const failed = (cause: string) => new TypeError("fetch failed", { cause: new Error(cause) });
  const prefix = "error sending request for url (http://h:1/x): client error (Connect): ";
  assertEquals(
    fetchErrorText(failed(`${prefix}tcp connect error: Connection refused (os error 111)`)),
    "Connection refused (os error 111)",
  );
  assertEquals(
    fetchErrorText(
      failed(`${prefix}dns error: failed to lookup address information: Name or service not known`),
    ),
    "dns error: failed to lookup address information: Name or service not known",
  );
  assertEquals(fetchErrorText(new DOMException("Signal timed out.", "TimeoutError")), "Signal timed out.");
});

Deno.test("sender: a 307 loop is one failure with its own message: the POST is not sent again per hop", async () => {
  let url = "";
  const r = receiver(() => new Response(null, { status: 307, headers: { location: url } }));
  url = r.url;
  try {
    const s = sender(r.url);
    s.push(points(2));
    const summary = await s.close(performance.now() + 5_000);
    assertEquals([summary.intervalsFailed, summary.retries, summary.posts, r.got.posts], [2, 0, 1, 1]);
    assertEquals(
      summary.lastError,
      `HTTP 307 redirect to ${url}: metrics POSTs do not follow redirects (the body and credentials would be ` +
        "sent again); give the receiver's final URL",
    );
  } finally {
    await r.close();
  }
});

Deno.test("sender: a receiver echoing the credentials it was sent keeps none of them in the error", async () => {
  const echo = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const authorization = req.headers.get("authorization")!;
    return new Response(`bad ${authorization}; user ${atob(authorization.slice(6))}`, { status: 401 });
  });
  try {
    const authorization = `Basic ${btoa("ada:pw4567xyz")}`;
    const s = new OutputSender(
      { kind: "otlp", url: `http://127.0.0.1:${echo.addr.port}/v1/metrics`, headers: { authorization } },
      (batch) => ({ body: String(batch.length), headers: {} }),
      FAST,
    );
    s.push(points(1));
    const { lastError } = await s.close(performance.now() + 5_000);
    ok(lastError?.startsWith("HTTP 401: bad [redacted 26 chars sha256:"), lastError);
    ok(!/pw4567xyz|YWRh/.test(lastError!), lastError);
  } finally {
    await echo.shutdown();
  }
});

Deno.test("sender: a 4xx is not retried (the receiver refuses the data) and its text is kept", async () => {
  const r = receiver(() => new Response("out of order sample", { status: 400 }));
  try {
    const s = sender(r.url);
    s.push(points(2));
    const summary = await s.close(performance.now() + 5_000);
    assertEquals([summary.intervalsFailed, summary.retries, summary.posts], [2, 0, 1]);
    assertEquals(summary.lastError, "HTTP 400: out of order sample");
  } finally {
    await r.close();
  }
});

Deno.test("sender: a receiver's error text is kept without escape sequences or control characters, and capped", async () => {
  const r = receiver(() =>
    new Response(`\x1b]0;pwned\x07bad \x1b[2J\x1b[1;1Hsample\r\nline two\x9b31m ${"y".repeat(400)}`, {
      status: 400,
    })
  );
  try {
    const s = sender(r.url);
    s.push(points(1));
    const summary = await s.close(performance.now() + 5_000);
    ok(summary.lastError?.startsWith("HTTP 400: bad sample line two yyy"), JSON.stringify(summary.lastError));
    // deno-lint-ignore no-control-regex -- no control character may remain
    ok(!/[\x00-\x1f\x7f-\x9f]/.test(summary.lastError!), JSON.stringify(summary.lastError));
    ok(summary.lastError!.length <= 210, `${summary.lastError!.length} characters kept`);
  } finally {
    await r.close();
  }
});

Deno.test("sender: a full queue drops its oldest points while a POST hangs, and counts them", async () => {
  let release!: () => void;
  const hung = new Promise<void>((resolve) => release = resolve);
  let first = true;
  const r = receiver(async () => {
    if (first) {
      first = false;
      await hung;
    }
    return new Response(null, { status: 200 });
  });
  try {
    const s = sender(r.url, { capacity: 3 });
    s.push(points(1));
    while (r.got.posts === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    s.push(points(5)); // the first POST still hangs: 2 of these 5 are dropped
    release();
    const summary = await s.close(performance.now() + 5_000);
    assertEquals([summary.intervalsSent, summary.intervalsDropped, summary.intervalsFailed], [4, 2, 0]);
    assertEquals(r.got.points, 4);
  } finally {
    await r.close();
  }
});

Deno.test("sender: the flush at the end stops at its time limit; what is left counts as dropped", async () => {
  let release!: () => void;
  const hung = new Promise<void>((resolve) => release = resolve);
  const r = receiver(async () => (await hung, new Response(null, { status: 200 })));
  try {
    const s = sender(r.url, { maxBatch: 2 });
    s.push(points(5));
    const started = performance.now();
    const summary = await s.close(performance.now() + 300);
    ok(performance.now() - started < 3_000, "close returned near its limit");
    assertEquals([summary.intervalsSent, summary.intervalsFailed, summary.intervalsDropped], [0, 2, 3]);
    assertEquals(summary.lastError, "the flush at the end ran out of time");
  } finally {
    release();
    await r.close();
  }
});

Deno.test("sender: an endless error body is read only as far as the message needs, not into memory until the timeout", async () => {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  const r = receiver(() =>
    new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }), { status: 400 })
  );
  try {
    const s = sender(r.url, { timeoutMs: 3_000 });
    s.push(points(1));
    const summary = await s.close(performance.now() + 10_000);
    assertEquals(summary.intervalsFailed, 1);
    ok(summary.lastError?.startsWith("HTTP 400: xxx"), summary.lastError);
    ok(summary.lastError!.length <= 210, `${summary.lastError!.length} characters kept`);
  } finally {
    await r.close();
  }
});
