/**
 * A script's gRPC calls against node:http2 servers that answer badly: a server stream that never ends
 * (fast, from a session script and from a k6 script; slow, past the call's deadline), and a unary call
 * answered with two messages. Each run ends within its bound (duration + the call's timeout + graceful stop
 * + 1 s, with its workers' start), under the memory limit, and its finding names the server's stream, the
 * call's own deadline or the broken answer, not the script's code. A run's time is its own record: from its
 * start (results.json's `startedAt`, after the process's start and the script's conversion) to its results
 * written, so a busy machine's slow process start is not counted against it.
 */
import { ok } from "node:assert/strict";
import http2 from "node:http2";
import { runWatched, type WatchedRun } from "./watched_run.ts";

const GREETER = new URL("../examples/grpc/greeter.proto", import.meta.url).pathname;
const MESSAGE = Uint8Array.of(0, 0, 0, 0, 3, 0x0a, 0x01, 0x78);
/** 2,048 small messages in one write: a stream as fast as the client reads. */
const BURST = new Uint8Array(MESSAGE.length * 2048).map((_, i) => MESSAGE[i % MESSAGE.length]);

type Mode = "fast" | "slow" | "two";

/** A gRPC server answering every call in `mode`, for the length of `fn`. */
async function withServer(mode: Mode, fn: (addr: string) => Promise<void>): Promise<void> {
  const server = http2.createServer();
  const timers = new Set<ReturnType<typeof setInterval>>();
  server.on("stream", (stream) => {
    stream.on("error", () => {});
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    if (mode === "two") {
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      return void stream.end(Uint8Array.of(...MESSAGE, ...MESSAGE));
    }
    if (mode === "slow") {
      const timer = setInterval(() => stream.destroyed ? clearInterval(timer) : stream.write(MESSAGE), 5);
      return void timers.add(timer);
    }
    const pump = () => {
      while (!stream.destroyed && stream.write(BURST));
    };
    stream.on("drain", pump);
    pump();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    await fn(`127.0.0.1:${(server.address() as { port: number }).port}`);
  } finally {
    for (const t of timers) clearInterval(t);
    await new Promise((done) => server.close(done));
  }
}

const DURATION_S = 2, TIMEOUT_S = 3;
const sessionScript = (method: string) => `
export const grpc = { proto: "./greeter.proto" };
export const options = {
  loads: { users: { model: "connections", connections: 1, duration: "${DURATION_S}s", protocol: "h2c" } },
};
export default async (s) => {
  const r = await s.grpc.invoke("helloworld.Greeter/${method}", { name: "x", count: -1 }, { timeoutMs: ${
  TIMEOUT_S * 1000
} });
  // A failed stream keeps its replies (k6's Stream hands them on) unless cut at the cap; a unary call none.
  const none = ${method !== "SayHellos"} || /cap/.test(r.error?.message ?? "");
  if (r.status !== 0 && (r.message === null) !== none) throw new Error("a failed call's replies were kept wrong");
};
`;
const k6Script = (method: string) => `
import grpc from "k6/net/grpc";
const client = new grpc.Client();
client.load(["."], "greeter.proto");
export const options = { vus: 1, duration: "${DURATION_S}s" };
export default () => {
  client.connect(__ENV.GRPC_ADDR, { plaintext: true });
  client.invoke("helloworld.Greeter/${method}", { name: "x", count: -1 }, { timeout: "${TIMEOUT_S}s" });
};
`;

/** A watched run and its seconds from the run's start to its results written. */
type StreamRun = WatchedRun & { runS: number };

/** `loadlab run` of `script` (file `name`) against a server in `mode`, watched. */
async function runScript(mode: Mode, name: string, script: string): Promise<StreamRun> {
  let result: StreamRun | null = null;
  await withServer(mode, async (addr) => {
    const dir = Deno.makeTempDirSync({ prefix: "loadlab-grpc-streams-" });
    try {
      Deno.copyFileSync(GREETER, `${dir}/greeter.proto`);
      Deno.writeTextFileSync(`${dir}/${name}`, script);
      const args = ["run", name, "--target", `app=http://${addr}`, "-e", `GRPC_ADDR=${addr}`];
      const run = await runWatched([...args, "--max-memory-mb", "600", "--out-dir", "out"], dir, {
        XDG_CACHE_HOME: `${dir}/cache`,
        DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`,
      });
      const written = Deno.statSync(`${dir}/out/results.json`).mtime!.getTime();
      const { startedAt } = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`)).runs[0];
      result = { ...run, runS: (written - Date.parse(startedAt)) / 1000 };
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  });
  return result!;
}

/** The run ended in its bound, under the memory limit, blaming what `finding` says and not the script. */
function judge(run: StreamRun, finding: RegExp, graceS: number) {
  const { text, peakMb, runS } = run;
  // The workers' start on a busy machine (0.1 s each idle) and the results' writing: 8 s beside the bound.
  const boundS = DURATION_S + TIMEOUT_S + graceS + 1 + 8;
  ok(runS < boundS, `${runS} s from the run's start to its results (bound ${boundS} s)\n${text}`);
  ok(peakMb < 600, `peak ${peakMb} MB\n${text}`);
  ok(finding.test(text), text);
  ok(!/the session script's own|keeps what each iteration makes|memory passed|replies were/.test(text), text);
}

const PAST_CAP = /a server stream of helloworld\.Greeter\/SayHellos passed its 1 MiB cap/;

Deno.test("a session script's server stream that never ends is cut at 1 MiB, named", async () => {
  judge(await runScript("fast", "session.js", sessionScript("SayHellos")), PAST_CAP, 2);
});

Deno.test("a k6 script's server stream that never ends is cut at 1 MiB, named", async () => {
  judge(await runScript("fast", "script.js", k6Script("SayHellos")), PAST_CAP, 2);
});

Deno.test("a slow server stream ends at the call's own deadline, named", async () => {
  judge(
    await runScript("slow", "session.js", sessionScript("SayHellos")),
    new RegExp(`within ${TIMEOUT_S * 1000} ms`),
    2,
  );
});

Deno.test("a unary call answered with two messages is a protocol error, not OK", async () => {
  judge(
    await runScript("two", "session.js", sessionScript("SayHello")),
    /grpc-protocol.*a unary call's answer with more than one message/,
    2,
  );
});
