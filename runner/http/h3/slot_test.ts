/**
 * `attack --h3` and `protocol: h3` end to end against real HTTP/3 servers on 127.0.0.1:
 * bench/h3_deno_server.ts (Deno's QUIC and http3/, needs nothing but Deno) and bench/h3_server.py (aioquic,
 * a stack no one here wrote; skipped with a printed reason without it, required under CI=true). Counts are
 * exact, failures counted by kind, input Deno's QUIC cannot honour refused with exit 2; every load is
 * bounded in count and time, so these check behaviour, not speed.
 */
import { loadlabInProcess } from "../../../tests/in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, runLoadlab, withTempDir } from "../../../tests/helpers.ts";
import { makeTlsFixtures, type TlsFixtures } from "../../../tests/tls_fixtures.ts";
import type { ResultsFile } from "../../../results/mod.ts";

const BENCH = new URL("../../../bench/", import.meta.url).pathname;

/** A running HTTP/3 server: its UDP port, and what it printed until ready. */
interface H3Server {
  port: number;
  text: string;
}

/** Starts `args` (a server printing `ready`, its port first), runs `fn` with its port, then stops it. */
async function withServer(
  cmd: string,
  args: string[],
  fn: (server: H3Server) => Promise<void>,
  ready = /listening (\d+)/,
) {
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "inherit" }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
    while (!ready.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${args[0]} exited before listening: ${text}`);
      text += value;
    }
    clearTimeout(deadline);
    const server = { port: Number(ready.exec(text)![1]), text };
    (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) server.text += r.value;
    })().catch(() => {});
    await fn(server);
  } finally {
    try {
      child.kill("SIGTERM");
    } catch { /* exited */ }
    await child.status;
  }
}

function withDenoH3(tls: TlsFixtures, fn: (server: H3Server) => Promise<void>, extra: string[] = []) {
  return withServer(Deno.execPath(), [
    "run",
    "-A",
    "--unstable-net",
    `${BENCH}h3_deno_server.ts`,
    "--cert",
    tls.serverCert,
    "--key",
    tls.serverKey,
    ...extra,
  ], fn);
}

/** `attack --h3 ARGS --json`: exit code, the JSON result (or null), stderr, seconds taken. */
async function attackH3(url: string, args: string[]) {
  const t0 = performance.now();
  const r = await runLoadlab(["attack", "--h3", ...args, "--json", "--no-live", url]);
  const json = r.stdout.trim() ? JSON.parse(r.stdout.split("\n")[0]) : null;
  return { ...r, json, seconds: (performance.now() - t0) / 1000 };
}

/** A UDP port nothing listens on (bound, then let go). */
function freeUdpPort(): number {
  const sock = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: 0 });
  const port = (sock.addr as Deno.NetAddr).port;
  sock.close();
  return port;
}

Deno.test("attack --h3: every request answered 200 over streams, counted exactly, by load model", async () => {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    await withDenoH3(tls, async ({ port }) => {
      const url = `https://127.0.0.1:${port}/`;
      const count = await attackH3(url, ["--cacert", tls.ca, "-n", "300", "-c", "3", "--streams", "4"]);
      assertEquals(count.code, 0, count.stderr);
      const r = count.json;
      assertEquals([r.protocol, r.transport, r.requests, r.statusCodes, r.errors], [
        "h3",
        "deno",
        300,
        { "200": 300 },
        {},
      ]);
      assertEquals(r.connects, 3);
      ok(r.maxStreamsPerConnection >= 1 && r.maxStreamsPerConnection <= 4, String(r.maxStreamsPerConnection));
      // 13 octets of body and a 10-octet HEADERS frame per answer (bench/h3_deno_server.ts).
      assertEquals(r.bytesRead, 300 * 24);
      ok(count.seconds < 60, `${count.seconds} s`);

      for (
        const model of [["-c", "2", "-d", "1s"], ["-R", "50", "-d", "1s"], [
          "--model",
          "throughput",
          "-R",
          "50",
          "-c",
          "2",
          "-d",
          "1s",
        ]]
      ) {
        const run = await attackH3(url, ["--cacert", tls.ca, ...model]);
        assertEquals(run.code, 0, `${model.join(" ")}: ${run.stderr}`);
        const j = run.json;
        ok(j.requests > 0, `${model.join(" ")}: no request`);
        assertEquals(
          [j.protocol, j.statusCodes, j.errors],
          ["h3", { "200": j.requests }, {}],
          model.join(" "),
        );
      }
    });
  });
});

Deno.test("attack --h3: --tls-resume on resumes reconnections' sessions, off none; handshakes counted", async () => {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    // A GOAWAY after every 2nd answer: each connection after the first is a new handshake.
    await withDenoH3(tls, async ({ port }) => {
      const url = `https://127.0.0.1:${port}/`;
      const load = ["--cacert", tls.ca, "-n", "12", "-c", "1", "--timeout", "5s"];
      const on = await attackH3(url, load); // on is the default
      assertEquals([on.code, on.json?.statusCodes], [0, { "200": 12 }], on.stderr);
      const t = on.json.tls;
      assertEquals([t.client, t.alpn, t.resume, on.json.config.tls.resume], ["deno", "h3", true, true]);
      ok(t.handshakes >= 3 && t.resumed > 0 && t.resumed < t.handshakes, JSON.stringify(t));
      const off = await attackH3(url, [...load, "--tls-resume", "off"]);
      assertEquals([off.code, off.json?.statusCodes], [0, { "200": 12 }], off.stderr);
      assertEquals([off.json.tls.resume, off.json.tls.resumed], [false, 0]);
      ok(off.json.tls.handshakes >= 3, JSON.stringify(off.json.tls));
    }, ["--goaway-after", "2"]);
  });
});

Deno.test("attack --h3: a worker's connections share one UDP socket (one client port)", async () => {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    await withDenoH3(tls, async (server) => {
      const args = ["--cacert", tls.ca, "-n", "40", "-c", "4", "--workers", "1"];
      const r = await attackH3(`https://127.0.0.1:${server.port}/`, args);
      assertEquals([r.code, r.json.requests, r.json.connects], [0, 40, 4], r.stderr);
      const peers = () => [...server.text.matchAll(/peer (\d+)/g)].map((m) => m[1]);
      for (let i = 0; i < 100 && peers().length < 4; i++) await new Promise((go) => setTimeout(go, 20));
      assertEquals([peers().length, new Set(peers()).size], [4, 1], server.text);
    }, ["--log-peers"]);
  });
});

Deno.test("attack --h3: a port nothing answers counts connect errors, bounded by the timeout", async () => {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    const r = await attackH3(`https://127.0.0.1:${freeUdpPort()}/`, [
      "--cacert",
      tls.ca,
      "-n",
      "4",
      "-c",
      "2",
      "--timeout",
      "1s",
    ]);
    assertEquals(r.code, 4, r.stderr);
    assertEquals([r.json.requests, r.json.connects, r.json.errors], [0, 0, { connect: 4 }]);
    ok(/no QUIC handshake within 1000 ms/.test(Object.keys(r.json.errorMessages.connect)[0]), r.stderr);
    ok(r.seconds < 30, `${r.seconds} s`);
  });
});

Deno.test("attack --h3: a certificate it cannot verify is a tls error, not a response", async () => {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    await withDenoH3(tls, async ({ port }) => {
      const r = await attackH3(`https://127.0.0.1:${port}/`, ["-n", "2", "-c", "1", "--timeout", "2s"]);
      assertEquals([r.json.requests, Object.keys(r.json.errors)], [0, ["tls"]], r.stderr);
    });
  });
});

Deno.test("attack --h3: input it cannot honour is exit 2 naming the fix", async () => {
  const url = "https://127.0.0.1:1/";
  const cases: Array<[string[], RegExp]> = [
    [
      ["http://127.0.0.1:1/"],
      /--protocol: protocol h3 runs over QUIC, which is always TLS: use an https:\/\/ URL/,
    ],
    [["-k", url], /-k: Deno's QUIC cannot skip certificate verification: .*--cacert/],
    [["--pipelining", "2", url], /--pipelining: .*use streams, not pipelining/],
    [["--transport", "epoll", url], /--transport: protocol h3 runs on Deno's QUIC: drop transport/],
    [["--cert", "c.pem", "--key", "k.pem", url], /cannot present a client certificate/],
    [["--h2", url], /--h2 and --h3 exclude each other: keep one/],
  ];
  for (const [args, message] of cases) {
    const r = await loadlabInProcess(["attack", "--h3", "-n", "1", ...args], { rejected: true });
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    ok(message.test(r.stderr), `${args.join(" ")}: ${r.stderr}`);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
});

Deno.test("run: a protocol sweep [http1, h2, h3] against the built-in target with tls: self-signed", async () => {
  await withTempDir(async (dir) => {
    // No CA named: the loads verify with the one the target made. h3 goes to the UDP port of the same number.
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `name: h3
targets:
  builtin: { kind: builtin, tls: self-signed }
requests: [/json, { method: POST, path: /echo, body: "ping" }]
loads:
  few: { model: count, requests: 30, connections: 2, duration: 20s }
sweeps: [{ parameter: load.protocol, values: [http1, h2, h3] }]
`,
    );
    const r = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 0, r.stderr + r.stdout);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertEquals(
      results.runs.map((run) => [run.sweep?.value, run.protocol, run.requests, run.statusCodes, run.errors]),
      [
        ["http1", "http1", 30, { "200": 30 }, {}],
        ["h2", "h2", 30, { "200": 30 }, {}],
        ["h3", "h3", 30, { "200": 30 }, {}],
      ],
    );
    // Both routes answered over h3: the Hono router saw the method, the path and the body.
    const h3 = results.runs[2].endpoints ?? [];
    assertEquals(h3.map((e) => [e.name, e.errors]), [["GET /json", {}], ["POST /echo", {}]]);
    ok(h3.every((e) => e.requests > 0 && e.statusCodes["200"] === e.requests), JSON.stringify(h3));
  });
});

Deno.test("serve --tls, then attack --h3 with the CA it prints: answered over HTTP/3", async () => {
  const main = new URL("../../../main.ts", import.meta.url).pathname;
  const args = ["run", "-A", main, "serve", "--tls", "--port", "0"];
  const ready = /listening on https:\/\/127\.0\.0\.1:(\d+)[\s\S]*press Ctrl-C/;
  await withServer(Deno.execPath(), args, async ({ port, text }) => {
    const ca = /verify with --cacert (\S+); HTTP\/3 on UDP port (\d+)/.exec(text);
    ok(ca !== null && Number(ca[2]) === port, text);
    const r = await attackH3(`https://127.0.0.1:${port}/json`, ["--cacert", ca[1], "-n", "40", "-c", "2"]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals([r.json.protocol, r.json.requests, r.json.statusCodes, r.json.errors], [
      "h3",
      40,
      { "200": 40 },
      {},
    ]);
  }, ready);
});

/** The Python with aioquic: $H3_PYTHON, the peers' venv, else python3; null (printed why) without it. */
function aioquicPython(): string | null {
  for (const python of [Deno.env.get("H3_PYTHON"), "/tmp/peers/py/bin/python", "python3"]) {
    if (python === undefined) continue;
    try {
      const ok = new Deno.Command(python, { args: ["-c", "import aioquic"], stdout: "null", stderr: "null" })
        .outputSync().success;
      if (ok) return python;
    } catch { /* not there */ }
  }
  if (Deno.env.get("CI") === "true") {
    throw new Error("aioquic is required on CI (CI=true): .ci/run installs it");
  }
  console.log("skipped: no python with aioquic (python3 -m pip install aioquic, or set H3_PYTHON)");
  return null;
}

Deno.test("attack --h3 against aioquic's HTTP/3: every request answered 200, counted exactly", async () => {
  const python = aioquicPython();
  if (python === null || !requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    const args = [`${BENCH}h3_server.py`, "--cert", tls.serverCert, "--key", tls.serverKey];
    await withServer(python, args, async ({ port }) => {
      const r = await attackH3(`https://127.0.0.1:${port}/`, [
        "--cacert",
        tls.ca,
        "-n",
        "200",
        "-c",
        "2",
        "--streams",
        "3",
      ]);
      assertEquals(r.code, 0, r.stderr);
      assertEquals([r.json.protocol, r.json.requests, r.json.statusCodes, r.json.errors], [
        "h3",
        200,
        { "200": 200 },
        {},
      ]);
      ok(r.seconds < 60, `${r.seconds} s`);
    });
  });
});
