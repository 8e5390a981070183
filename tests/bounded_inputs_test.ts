/**
 * @module
 * Inputs are bounded in memory, not only in the bytes read: a `--baseline` URL answering a gzip bomb
 * (2 MiB on the wire, 2 GiB inflated) is refused at the results file's cap with the process's peak RSS
 * far below what it inflates to (measured by `/usr/bin/time`, the test skipped where it is missing), and
 * TLS files get the checks of every input file: `--cacert /dev/zero` is refused at once, not read. A
 * 10 MB CSV data file runs with the process's peak RSS a few times the file, not 100x (it was 978 MiB).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { constants, deflateRawSync } from "node:zlib";
import { runLoadlab, withTempDir } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const TIME = "/usr/bin/time";

/**
 * A gzip answer of `mib` MiB of zeros: one MiB deflated with a full flush is a self-contained run of
 * blocks, so copies of it back to back are one valid stream. The trailer is never reached: the cap cuts
 * the answer long before.
 */
function gzipBomb(mib: number): Uint8Array<ArrayBuffer> {
  const block = deflateRawSync(new Uint8Array(2 ** 20), { finishFlush: constants.Z_FULL_FLUSH });
  const body = new Uint8Array(10 + block.length * mib + 2 + 8);
  body.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  for (let i = 0; i < mib; i++) body.set(block, 10 + i * block.length);
  body.set([3, 0], 10 + block.length * mib);
  return body;
}

/** `loadlab ARGS` under `/usr/bin/time`: its exit code, output and peak RSS in MiB. */
async function measured(args: string[]): Promise<{ code: number; text: string; peakMiB: number }> {
  const out = await new Deno.Command(TIME, {
    args: ["-f", "peak_rss_kib=%M", Deno.execPath(), "run", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const kib = Number(/peak_rss_kib=(\d+)/.exec(text)?.[1]);
  return { code: out.code, text, peakMiB: kib / 1024 };
}

const hasTime = (() => {
  try {
    return Deno.statSync(TIME).isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "a gzip bomb as --baseline is refused at the cap, the process far under what it inflates to",
  ignore: !hasTime,
  fn: async () => {
    const bomb = gzipBomb(2048);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () =>
        new Response(bomb, { headers: { "content-encoding": "gzip", "content-type": "application/json" } }),
    );
    try {
      const url = `http://127.0.0.1:${server.addr.port}/results.json`;
      // Nothing listens on the discard port: no load is sent, the baseline is read first.
      const out = await measured(["attack", "http://127.0.0.1:9/", "--baseline", url]);
      assertEquals(out.code, 2, out.text);
      assert(
        out.text.includes(`${url}: larger than 268435456 bytes, the most a results file may be`),
        out.text,
      );
      // The cap is 256 MiB; inflating ahead of it reached 3 GiB.
      assert(out.peakMiB < 1024, `peak RSS ${out.peakMiB.toFixed(0)} MiB\n${out.text}`);
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test("--cacert /dev/zero (and a tls.caFile of it) is refused at once as a device, not read", async () => {
  const out = await runLoadlab(["attack", "https://127.0.0.1:9/", "--cacert", "/dev/zero", "-d", "1s"]);
  assertEquals(out.code, 2, out.stderr);
  assert(
    /--cacert: cannot read \/dev\/zero \(is a character device, not a regular file\)/.test(out.stderr),
    out.stderr,
  );
  const key = await runLoadlab([
    "attack",
    "https://127.0.0.1:9/",
    "--cert",
    "/dev/zero",
    "--key",
    "/dev/zero",
  ]);
  assertEquals(key.code, 2, key.stderr);
  assert(/--cert: cannot read \/dev\/zero \(is a character device/.test(key.stderr), key.stderr);
});

Deno.test({
  name: "a 10 MB CSV data file costs a few times its size in memory, not 100x",
  ignore: !hasTime,
  fn: async () => {
    await withTempDir(async (dir) => {
      const lines = ["user,password,token"];
      for (let i = 0; lines.length < 150_000; i++) {
        lines.push(`user${i},"pw, ""${i}""",tok-${String(i).padStart(12, "0")}-abcdefghijklmnop`);
      }
      await Deno.writeTextFile(`${dir}/users.csv`, lines.join("\n"));
      await Deno.writeTextFile(
        `${dir}/exp.yaml`,
        `name: csv
targets:
  app: { kind: builtin }
data:
  users: { file: users.csv, order: random }
loads:
  one: { model: count, requests: 20, connections: 2, data: users, workers: 2 }
requests:
  - { path: "/json", query: { u: "{{ user }}", t: "{{ token }}" } }
`,
      );
      const size = (await Deno.stat(`${dir}/users.csv`)).size / 2 ** 20;
      const out = await measured(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
      assertEquals(out.code, 0, out.text);
      const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(results.runs[0].requests, 20);
      // Loadlab and its two workers take ~200 MiB with no data at all; holding the rows as strings and
      // a Uint8Array per value in each worker took 978 MiB for this file.
      assert(out.peakMiB < 450, `peak RSS ${out.peakMiB.toFixed(0)} MiB for ${size.toFixed(1)} MiB of CSV`);
    });
  },
});
