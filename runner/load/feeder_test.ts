/**
 * Data rows per worker (feeder.ts) in each order, and end to end through real worker isolates: a
 * templated request (a row's value in the path, one in a header) against a real raw-TCP server on
 * 127.0.0.1 that keeps every request's bytes, with 4 workers and 2 segments. Bounded: a count load of
 * at most 200 requests, each run under a few seconds.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../config.ts";
import type { DataSpec } from "../session_schema.ts";
import { runAttack } from "../attack.ts";
import { Feeder } from "./feeder.ts";
import { packRows } from "../data_rows.ts";
import { stripeOf } from "./schedule.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { keepLoadWorkers } from "../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const decoder = new TextDecoder();
const rowsOf = (n: number) => Array.from({ length: n }, (_, k) => [String(k), `user${k}`]);
const spec = (order: DataSpec["order"], whenDone: DataSpec["whenDone"], n = 40): DataSpec => ({
  name: "users",
  columns: ["id", "name"],
  rows: packRows(rowsOf(n), 2),
  order,
  whenDone,
});

/** Every row a feeder hands out until it runs out (or `cap`), as ids. */
function drain(f: Feeder, cap = 1000): string[] {
  const ids: string[] = [];
  for (let row = f.next(); row !== null && ids.length < cap; row = f.next()) ids.push(decoder.decode(row[0]));
  return ids;
}

/** The 8 feeders of 4 workers in each of 2 segments. */
function feeders(s: DataSpec): Feeder[] {
  const out: Feeder[] = [];
  for (let segment = 0; segment < 2; segment++) {
    for (let w = 0; w < 4; w++) {
      const stripe = stripeOf({ index: segment, count: 2 }, w, 4);
      out.push(new Feeder(s, stripe.workerIndex, stripe.workerCount));
    }
  }
  return out;
}

Deno.test("feeder unique, 4 workers x 2 segments: every row once, no row twice, then each stops", () => {
  const all = feeders(spec("unique", "stop")).map((f) => {
    let ranOut = 0;
    f.onExhausted = () => ranOut++;
    const ids = drain(f);
    assertEquals([f.next(), ranOut, f.exhausted], [null, 1, 2]);
    return ids;
  });
  const seen = all.flat();
  assertEquals(seen.length, 40);
  assertEquals(new Set(seen).size, 40);
  ok(all.every((ids) => ids.length === 5), "8 stripes share 40 rows evenly");
});

Deno.test("feeder sequential: in order from the stripe's offset; wrap goes round, stop after N rows", () => {
  const wrapping = feeders(spec("sequential", "wrap", 8));
  assertEquals(drain(wrapping[1], 10), ["2", "3", "4", "5", "6", "7", "0", "1", "2", "3"]);
  const stopping = feeders(spec("sequential", "stop", 8));
  assertEquals(drain(stopping[4]), ["1", "2", "3", "4", "5", "6", "7", "0"]);
  assertEquals(stopping[4].next(), null);
});

Deno.test("feeder random: rows of the file, never runs out", () => {
  const f = new Feeder(spec("random", "wrap", 5), 0, 1);
  const ids = drain(f, 200);
  assertEquals(ids.length, 200);
  ok(ids.every((id) => ["0", "1", "2", "3", "4"].includes(id)));
  ok(new Set(ids).size > 1, "random picks vary");
});

interface RawServer {
  url: string;
  /** Every request's bytes, as text. */
  requests: string[];
  close(): void;
}

/** A raw HTTP/1.1 server: splits requests by their head (and Content-Length body), answers 200 each. */
function rawServer(): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: string[] = [];
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      serve(conn, requests).finally(() => conns.delete(conn));
    }
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close() {
      listener.close();
      for (const c of conns) c.close();
    },
  };
}

async function serve(conn: Deno.Conn, requests: string[]): Promise<void> {
  const buf = new Uint8Array(65536);
  let pending = "";
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return;
      pending += decoder.decode(buf.subarray(0, n));
      while (true) {
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) break;
        const length = Number(/content-length: *(\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) break;
        requests.push(pending.slice(0, end + 4 + length));
        pending = pending.slice(end + 4 + length);
        await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"));
      }
    }
  } catch {
    // closed by the client or at the end of the test
  } finally {
    try {
      conn.close();
    } catch { /* already closed */ }
  }
}

// One worker first: the first worker of a test process is type-checked as it starts (slow on a busy
// machine); later ones start at once, so the 4 x 2 run below waits for nothing but its own start.
Deno.test("templated body: Content-Length computed from the filled parts, sequential rows wrap", async () => {
  const server = rawServer();
  try {
    await runAttack(parseAttackConfig({
      url: server.url,
      model: "count",
      requests: 6,
      connections: 1,
      intervalMs: 100,
      requestMix: [{
        method: "POST",
        path: "/login",
        headers: [["content-type", "application/json"]],
        body: new TextEncoder().encode('{"user":"{{ name }}","n":{{ id }},"s":"{{ $randomString(3) }}"}'),
      }],
      data: spec("sequential", "wrap", 4),
    }));
    assertEquals(server.requests.length, 6);
    server.requests.forEach((text, k) => {
      const body = `{"user":"user${k % 4}","n":${k % 4},"s":"`;
      const [head, sent] = text.split("\r\n\r\n");
      ok(sent.startsWith(body) && /^[A-Za-z0-9]{3}"}$/.test(sent.slice(body.length)), sent);
      ok(head.endsWith(`\r\nContent-Length: ${sent.length}`), head);
    });
  } finally {
    server.close();
  }
});

Deno.test("templated request: exact bytes per row, unique rows across 4 workers x 2 segments", async () => {
  const server = rawServer();
  try {
    const ranOut: number[] = [];
    for (let index = 0; index < 2; index++) {
      const r = await runAttack(parseAttackConfig({
        url: server.url,
        model: "count",
        requests: 200,
        connections: 8,
        workers: 4,
        segment: { index, count: 2 },
        durationMs: 10_000,
        intervalMs: 100,
        requestMix: [{
          method: "GET",
          path: "/u/{{ id }}?r={{ $randomNumber(5,9) }}",
          headers: [["x-user", "{{name}}"]],
        }],
        data: spec("unique", "stop"),
      }));
      ranOut.push(r.dataRanOutWorkers ?? 0);
      // A busy machine may flag the run generator-bound too: the data's flag is what this test asks for.
      const flags = runVerdict(r).flags.filter((f) => f.kind !== "generator-bound");
      assertEquals(flags.map((f) => f.label), ["data ran out in 4 worker(s)"]);
    }
    assertEquals(ranOut, [4, 4]);
    assertEquals(server.requests.length, 40);
    const ids = server.requests.map((text) => {
      const m = /^GET \/u\/(\d+)\?r=([5-9]) HTTP\/1\.1\r\n/.exec(text);
      ok(m, `request line: ${JSON.stringify(text)}`);
      assertEquals(
        text,
        `GET /u/${m[1]}?r=${m[2]} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nUser-Agent: loadlab\r\n` +
          `x-user: user${m[1]}\r\n\r\n`,
      );
      return m[1];
    });
    assertEquals(new Set(ids).size, 40);
  } finally {
    server.close();
  }
});

Deno.test("config refuses what data and cookies exclude: pipelining with data, cookies without flows, unique that wraps", () => {
  const issues = (input: Record<string, unknown>) => {
    try {
      parseAttackConfig({ url: "http://127.0.0.1:1", model: "count", requests: 1, ...input });
    } catch (err) {
      return (err as { issues: Array<{ path: string; message: string }> }).issues.map((i) => i.path);
    }
    return [];
  };
  assertEquals(issues({ data: spec("sequential", "wrap"), pipelining: 4, connections: 1 }), ["pipelining"]);
  assertEquals(issues({ cookies: true }), ["cookies"]);
  assertEquals(issues({ data: spec("unique", "wrap") }), ["data.whenDone"]);
});
