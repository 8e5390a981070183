/**
 * k6's `res.error_code` and `res.error` of a failed request on loadlab's engine, against real local
 * sockets: a server that never answers (the request's own 300 ms timeout: 1050), a port nobody listens
 * on (1212), a server that resets the connection (1220), beside a request that succeeds (0, ""); then the
 * three at once in a batch, each failure its own connection's. The
 * script names a check by each response's code and text, so the test reads what the script saw. Every
 * load is bounded: one VU, two iterations.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import net from "node:net";
import { basename } from "node:path";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";
import { conversionCacheDir } from "../runner/script/cache_dir.ts";
import { k6ErrorOf } from "../runner/script/k6/errors/error_codes.ts";
import { fetchFailed } from "../runner/script/k6/response.ts";

const SCRIPT = (ok: string, slow: string, refused: string, reset: string) => `
import http from "k6/http";
import { check } from "k6";

// As k6's: a request with no response has a null body.
const seen = (name, r) => check(r, { [[name, r.error_code, r.error, JSON.stringify(r.body)].join(" ")]: () => true });

export default function () {
  seen("ok", http.get("${ok}/"));
  seen("timeout", http.get("${slow}/", { timeout: "300ms" }));
  seen("refused", http.get("${refused}/"));
  seen("reset", http.get("${reset}/"));
  // In parallel: each failure is its own connection's, whatever else failed meanwhile.
  const [slow, refused, reset] = http.batch([
    ["GET", "${slow}/", null, { timeout: "300ms" }],
    ["GET", "${refused}/"],
    ["GET", "${reset}/"],
  ]);
  seen("batch timeout", slow);
  seen("batch refused", refused);
  seen("batch reset", reset);
}
`;

/** Accepts and holds every connection, answering nothing, until closed. */
function holdingServer(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      listener.close();
      for (const conn of held) conn.close();
    },
  };
}

/** Resets each connection (RST) once its request's first bytes arrived. */
async function resettingServer(): Promise<{ port: number; close(): void }> {
  const server = net.createServer((sock) => sock.once("data", () => sock.resetAndDestroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

/**
 * A port nobody listens on, above the kernel's ephemeral range (where port-0 servers go) and the range the
 * suite's `freePort` picks from (below it): a port-0 one was taken by another test's server meanwhile, and
 * both "refused" requests were answered.
 */
function closedPort(): number {
  let high = 60_999;
  try {
    high = Number(Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range").trim().split(/\s+/)[1]);
  } catch { /* not Linux: the default range */ }
  for (let i = 0; i < 50 && high < 65_535; i++) {
    const port = high + 1 + Math.floor(Math.random() * (65_535 - high));
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
      return port;
    } catch { /* in use: another */ }
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("k6's error codes and texts for a timeout, a refused connect and a reset", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  const slow = holdingServer(), reset = await resettingServer();
  const at = (port: number) => `http://127.0.0.1:${port}`;
  const file = Deno.makeTempFileSync({ suffix: ".js" });
  try {
    Deno.writeTextFileSync(
      file,
      SCRIPT(at(server.addr.port), at(slow.port), at(closedPort()), at(reset.port)),
    );
    const run = await runAttack(parseAttackConfig({
      url: at(server.addr.port),
      model: "count",
      requests: 2,
      connections: 1,
      intervalMs: 100,
      timeoutMs: 5000,
      script: { path: sessionScriptPath(file) },
    }));
    const checks = run.flows![0].steps.flatMap((s) => s.checks ?? []).map((c) => [c.name, c.passed]);
    assertEquals(checks.sort(), [
      ["batch refused 1212 dial: connection refused null", 2],
      ["batch reset 1220 read: connection reset by peer null", 2],
      ["batch timeout 1050 request timeout null", 2],
      ['ok 0  "ok"', 2],
      ["refused 1212 dial: connection refused null", 2],
      ["reset 1220 read: connection reset by peer null", 2],
      ["timeout 1050 request timeout null", 2],
    ]);
    // The results say the request's own timeout, not the run's.
    const timeouts = Object.keys(run.errorMessages?.timeout ?? {});
    ok(
      timeouts.length > 0 && timeouts.every((m) => m.includes("within 300 ms")),
      JSON.stringify(run.errorMessages),
    );
  } finally {
    slow.close();
    reset.close();
    await server.shutdown();
    Deno.removeSync(file);
  }
});

Deno.test("k6's codes by loadlab's error kinds", () => {
  const code = (kind: string, message: string) => k6ErrorOf(kind, message).code;
  assertEquals(code("connect", "no connection within 500 ms: the SYN was not answered"), 1211);
  assertEquals(code("connect", "failed to lookup address information: Name or service not known"), 1101);
  assertEquals(code("write", "Broken pipe (os error 32)"), 1201);
  assertEquals(code("closed-early", "connection closed before the response began"), 1000);
  assertEquals(
    k6ErrorOf("closed-early", "connection closed before the response ended").text,
    "unexpected EOF",
  );
  assertEquals(code("tls", "certificate verify failed: unable to get local issuer certificate"), 1310);
  const unknownCa =
    "tls unknown-ca: the server's certificate is not signed by a trusted CA (pass --cacert FILE or --insecure)";
  assertEquals(k6ErrorOf("tls", unknownCa), { code: 1310, text: "x509: unknown authority" });
  assertEquals(
    code("tls", "tls hostname: the server's certificate does not name the host (use --sni NAME)"),
    1311,
  );
  assertEquals(k6ErrorOf("tls", "received fatal alert: HandshakeFailure").code, 1010);
  assertEquals(code("tls", "Hostname mismatch"), 1311);
  assertEquals(code("tls", "wrong version number"), 1300);
  assertEquals(code("h2-refused-stream", "RST_STREAM REFUSED_STREAM"), 1638);
  assertEquals(code("h2-protocol", "RST_STREAM CANCEL"), 1639);
  assertEquals(code("h2-protocol", "a HEADERS frame on stream 0"), 1652);
  assertEquals(
    k6ErrorOf("goaway", "GOAWAY ENHANCE_YOUR_CALM").text,
    "http2: received GoAway with http2 ErrCode ENHANCE_YOUR_CALM",
  );
  assertEquals(code("goaway", "GOAWAY ENHANCE_YOUR_CALM"), 1622);
});

Deno.test("outside a session (setup, teardown) a failed fetch reads as k6's code too", async () => {
  const codeOf = async (url: string, init?: RequestInit) => {
    const failure = await fetch(url, init).then((r) => {
      r.body?.cancel();
      return undefined;
    }, (err) => fetchFailed(err).failure);
    return failure === undefined ? 0 : k6ErrorOf(failure.kind, failure.message).code;
  };
  assertEquals(await codeOf(`http://127.0.0.1:${closedPort()}/`), 1212);
  const slow = holdingServer();
  try {
    assertEquals(await codeOf(`http://127.0.0.1:${slow.port}/`, { signal: AbortSignal.timeout(200) }), 1050);
  } finally {
    slow.close();
  }
});

Deno.test("a k6 setup() that throws is the run's setupError when its conversion is outside the cache", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  const file = Deno.makeTempFileSync({ suffix: ".js" });
  const moved = Deno.makeTempDirSync({ prefix: "loadlab-k6-cache-moved-" });
  try {
    Deno.writeTextFileSync(
      file,
      `import http from "k6/http";\nexport function setup() { throw new Error("no token"); }\n` +
        `export default function () { http.get("http://127.0.0.1:${server.addr.port}/"); }\n`,
    );
    // The conversion under another cache folder (as after XDG_CACHE_HOME moved): known by its path alone.
    const root = sessionScriptPath(file).slice(0, -file.length);
    Deno.mkdirSync(`${moved}/loadlab/k6`, { recursive: true });
    await new Deno.Command("cp", { args: ["-a", root, `${moved}/loadlab/k6/`] }).output();
    const path = `${moved}/loadlab/k6/${basename(root)}${file}`;
    ok(Deno.statSync(path).isFile && !path.startsWith(conversionCacheDir()), path);
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.addr.port}`,
      model: "count",
      requests: 2,
      connections: 1,
      script: { path },
    }));
    ok(run.setupError?.includes("no token"), JSON.stringify(run.setupError));
    assertEquals(run.incomplete, true);
  } finally {
    await Deno.remove(moved, { recursive: true });
    await server.shutdown();
  }
});
