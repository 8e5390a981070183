/**
 * Data-driven requests over HTTP/2, end to end: a CSV read as an experiment's `data:` file fills path,
 * header and body placeholders of a POST sent over h2c (prior knowledge; connections kept, and one per
 * arrival) and h2 (TLS by ALPN, the CA file) on each transport, to the built-in target's app served by
 * `Deno.serve` on 127.0.0.1, which records what it received. Asserted: every row's exact request (path,
 * header, body and its content-length), each row once across 2 workers (`unique`), the answers the app gives
 * (200 for the right password, 401 else), no errors, and the same requests as over HTTP/1.1; a bad
 * placeholder in an h2 experiment is exit 2 before anything is sent. Bounded count loads.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { parseAttackConfig } from "../runner/config.ts";
import type { RequestSpec } from "../runner/request_spec.ts";
import { runAttack } from "../runner/attack.ts";
import { createTargetApp } from "../targets/app/app.ts";
import { readDataFile } from "../scenarios/data_sources.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { makeTlsFixtures, TLS_TRANSPORTS, type TlsFixtures } from "./tls_fixtures.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const ROWS = 24;

/** `id,user,password`: every third row has the wrong password (a 401 from the app). */
function csv(): string {
  let text = "id,user,password\n";
  for (let k = 1; k <= ROWS; k++) text += `${k},"user ${k}, jr",${k % 3 === 0 ? "wrong" : "secret"}\n`;
  return text;
}

const request: RequestSpec = {
  method: "POST",
  path: "/login?row={{ id }}",
  headers: [["x-user", "{{ user }}"], ["content-type", "application/json"]],
  body: new TextEncoder().encode('{"user":"{{ user }}","password":"{{password}}"}'),
  weight: 1,
};

interface Seen {
  line: string;
  user: string | null;
  length: string | null;
  body: string;
}

/** The built-in target's app on 127.0.0.1 (TLS when `cert` is given), recording each request. */
function serve(cert?: { cert: string; key: string }) {
  const seen: Seen[] = [];
  const { fetch } = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...cert }, async (req) => {
    const u = new URL(req.url);
    const body = await req.clone().text();
    seen.push({
      line: `${req.method} ${u.pathname}${u.search}`,
      user: req.headers.get("x-user"),
      length: req.headers.get("content-length"),
      body,
    });
    return fetch(req);
  });
  const scheme = cert === undefined ? "http" : "https";
  return { url: `${scheme}://127.0.0.1:${server.addr.port}/`, seen, close: () => server.shutdown() };
}

/** One bounded load of the CSV's rows (unique, 2 workers) with `protocol`; the requests seen, sorted. */
async function runRows(
  dir: string,
  protocol: "http1" | "h2c" | "h2",
  transport: string,
  f?: TlsFixtures,
  perArrival = false,
) {
  const table = readDataFile(join(dir, "users.csv"));
  const caFile = f?.ca;
  const server = serve(
    f === undefined
      ? undefined
      : { cert: Deno.readTextFileSync(f.serverCert), key: Deno.readTextFileSync(f.serverKey) },
  );
  try {
    const r = await runAttack(parseAttackConfig({
      url: server.url,
      model: "count",
      requests: 100,
      connections: 2,
      workers: 2,
      protocol,
      ...(perArrival ? { connection: "per-arrival" as const } : protocol === "http1" ? {} : { streams: 4 }),
      transport: transport as "deno" | "epoll",
      timeoutMs: 5_000,
      durationMs: 20_000,
      intervalMs: 100,
      requestMix: [request],
      data: { name: "users", ...table, order: "unique", whenDone: "stop" },
      ...(caFile === undefined ? {} : { tls: { caFile } }),
    }));
    assertEquals(
      [r.protocol ?? "http1", r.requests, r.errors, r.statusCodes, r.dataRanOutWorkers],
      [protocol, ROWS, {}, { "200": 16, "401": 8 }, 2],
    );
    return server.seen.sort((a, b) => Number(a.line.split("=")[1]) - Number(b.line.split("=")[1]));
  } finally {
    await server.close();
  }
}

function expected(): Seen[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const k = i + 1;
    const body = `{"user":"user ${k}, jr","password":"${k % 3 === 0 ? "wrong" : "secret"}"}`;
    return { line: `POST /login?row=${k}`, user: `user ${k}, jr`, length: String(body.length), body };
  });
}

for (const transport of ["deno", "epoll"]) {
  Deno.test(`h2 data [${transport}]: CSV rows fill path, header and body over h2c (kept and per-arrival) as over HTTP/1.1`, async () => {
    await withTempDir(async (dir) => {
      Deno.writeTextFileSync(join(dir, "users.csv"), csv());
      const h2c = await runRows(dir, "h2c", transport);
      assertEquals(h2c, expected());
      assertEquals(await runRows(dir, "http1", transport), h2c);
      assertEquals(await runRows(dir, "h2c", transport, undefined, true), h2c);
    });
  });
}

for (const transport of TLS_TRANSPORTS) {
  Deno.test(`h2 data [${transport}]: CSV rows fill path, header and body over h2 (TLS, ALPN)`, async () => {
    if (!requireProgram("openssl")) return;
    await withTempDir(async (dir) => {
      const f = await makeTlsFixtures(dir);
      Deno.writeTextFileSync(join(dir, "users.csv"), csv());
      assertEquals(await runRows(dir, "h2", transport, f), expected());
    });
  });
}

Deno.test("h2 data: an unknown placeholder in an h2c experiment is exit 2 naming it; nothing is sent", async () => {
  await withTempDir(async (dir) => {
    Deno.writeTextFileSync(join(dir, "users.csv"), csv());
    const server = serve();
    try {
      const file = join(dir, "exp.yaml");
      Deno.writeTextFileSync(
        file,
        `name: h2-data
targets: { mine: { url: "${server.url}" } }
data: { users: { file: users.csv, order: unique } }
requests: [{ method: POST, path: "/login?row={{ idd }}" }]
loads: { once: { model: count, requests: 5, connections: 1, data: users, protocol: h2c } }
`,
      );
      const r = await runLoadlab(["run", file, "--out-dir", join(dir, "out")]);
      assertEquals(r.code, 2, r.stderr);
      ok(r.stderr.includes("{{ idd }} is unknown: it is not a column of data users"), r.stderr);
      assertEquals(server.seen, []);
    } finally {
      await server.close();
    }
  });
});
