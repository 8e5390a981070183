/**
 * `loadlab serve` end to end: flags to a target spec, a real run printing its URL and endpoints, and
 * Ctrl-C (SIGINT) stopping every process it started.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
  throws,
} from "node:assert/strict";
import { parseFlags, runServeCommand, serveSpecFromFlags } from "../cli/serve_cmd.ts";

const spec = (...argv: string[]) => serveSpecFromFlags(parseFlags(argv));

Deno.test("serve flags: built-in target options", () => {
  const s = spec("--port=8123", "--instances", "2", "--balance", "least-connections", "--compress=gzip");
  assert(s.kind === "builtin");
  assertEquals([s.port, s.instances, s.balance, s.compress], [8123, 2, "least-connections", "gzip"]);
  const r = spec("--reuse-port", "--instances", "3", "--cache-ttl", "1.5", "--compress");
  assert(r.kind === "builtin");
  assertEquals([r.balance, r.cacheTtlSec, r.compress], ["reuse-port", 1.5, true]);
});

Deno.test("serve flags: proxy in front of an app or of the built-in target", () => {
  const p = spec("--proxy", "http://127.0.0.1:3000", "--redis-cache-ttl", "60", "--rate-limit", "100/1s");
  assert(p.kind === "proxy");
  assertEquals([p.upstream, p.cacheTtlSec, p.rateLimit], [
    { url: "http://127.0.0.1:3000" },
    60,
    { limit: 100, windowMs: 1000 },
  ]);
  const b = spec("--redis-cache-ttl", "5", "--port", "9000");
  assert(b.kind === "proxy" && "kind" in b.upstream && b.upstream.kind === "builtin");
  assertEquals(b.port, 9000);
});

Deno.test("serve flags: problems name the flag and the fix", () => {
  throws(
    () => spec("--port", "x"),
    /^UsageError: --port "x": must be a whole number 0..65535, e.g. --port 8080$/,
  );
  throws(() => spec("--port", "70000"), /--port "70000": must be a whole number 0..65535/);
  throws(
    () => spec("--balance", "random"),
    /--balance "random": must be one of round-robin, least-connections/,
  );
  throws(() => spec("--rate-limit", "lots"), /--rate-limit "lots": must look like 100\/1s/);
  throws(() => spec("--compress=zip"), /--compress "zip": must be one of gzip, brotli, e.g. --compress=gzip/);
  throws(() => spec("--reuse-port=1"), /--reuse-port takes no value/);
  throws(() => spec("--proxy", "localhost:3000"), /--proxy "localhost:3000": needs an http:\/\/ URL/);
  throws(() => spec("--nope"), /--nope: unknown flag; see loadlab serve --help/);
  throws(() => spec("--host"), /--host: missing value/);
  throws(() => spec("stray"), /unexpected argument "stray"/);
  throws(
    () => spec("--proxy", "http://127.0.0.1:3000", "--compress"),
    /--compress applies to the built-in target/,
  );
});

Deno.test("runServeCommand returns 2 on a bad flag", async () => {
  const original = console.error;
  const printed: string[] = [];
  console.error = (msg: string) => printed.push(msg);
  try {
    assertEquals(await runServeCommand(["--instances", "0"]), 2);
  } finally {
    console.error = original;
  }
  assertEquals(printed, ['loadlab serve: --instances "0": must be a whole number 1..64, e.g. --instances 2']);
});

Deno.test("serve runs until SIGINT, prints URL and endpoints, and stops its processes", async () => {
  const cmd = new URL("../cli/serve_cmd.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", cmd, "--instances", "2"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const deadline = Date.now() + 30_000;
  while (!out.includes("Ctrl-C") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
  assert(url, out);
  assertMatch(out, /\/fib\/:n/);
  const pids = [...out.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
  assertEquals(pids.length, 3, out);
  assertEquals(await (await fetch(`${url}/json`)).json(), { message: "Hello, World!" });
  child.kill("SIGINT");
  const status = await child.status;
  await reader.cancel();
  await child.stderr.cancel();
  assertEquals(status.code, 0);
  const alive = pids.filter((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1][0] !== "Z";
    } catch {
      return false;
    }
  });
  assertEquals(alive, []);
});
