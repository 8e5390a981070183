/**
 * @module
 * Every exit code of `loadlab attack` (README's table), run as users run it: 0 ok, 1 a threshold failed,
 * 2 bad input, 4 no response at all (said on stderr with the errors), 5 an output that cannot be written
 * (before any request is sent), 130 after Ctrl-C and 143 after SIGTERM or SIGHUP (partial results still
 * written).
 * `run`'s codes are tested in run_cli_test.ts (0, 1, 2, 5, 130), run_search_test.ts (3, 4) and
 * fault_drills_2_test.ts (143); bad input of every command in bad_input_test.ts. Loads are a few
 * requests on 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { freePort } from "../system/ports.ts";
import { testPool } from "./fixtures/test_pool.ts";

function target() {
  let received = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    received++;
    return new Response("ok");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    received: () => received,
    close: () => server.shutdown(),
  };
}

/** Cases at once: each waits on its `loadlab` children. */
const pool = testPool(4);

pool.test("attack exit 0: every request answered, no threshold", async () => {
  const t = target();
  try {
    const r = await runLoadlab(["attack", t.url, "-n", "20", "-c", "2", "-q"]);
    assertEquals(r.code, 0, r.stderr);
  } finally {
    await t.close();
  }
});

pool.test("attack exit 1: only a failed threshold", async () => {
  const t = target();
  try {
    const r = await runLoadlab([
      "attack",
      t.url,
      "-n",
      "20",
      "-c",
      "2",
      "-q",
      "--threshold",
      "requests>1000",
    ]);
    assertEquals(r.code, 1, r.stderr);
  } finally {
    await t.close();
  }
});

pool.test("attack exit 2: bad input, before any request", async () => {
  const t = target();
  try {
    const r = await runLoadlab(["attack", t.url, "-n", "20", "--max-header-bytes", "12"]);
    assertEquals(r.code, 2, r.stderr);
    assert(r.stderr.includes("--max-header-bytes"), r.stderr);
    assertEquals(t.received(), 0);
  } finally {
    await t.close();
  }
});

pool.test("attack exit 4: no response at all, said with the errors; not 1 even with a threshold", async () => {
  const url = `http://127.0.0.1:${freePort()}/`;
  const r = await runLoadlab(["attack", url, "-n", "5", "-c", "1", "--threshold", "p99<10s"]);
  assertEquals(r.code, 4, r.stderr);
  assert(
    /no response at all: every request failed or was cut unanswered \(connect: 5, e\.g\. "/.test(r.stderr),
    r.stderr,
  );
});

pool.test("attack exit 5: --out, --report or --log under a regular file, before any request", async () => {
  await withTempDir(async (dir) => {
    const t = target();
    try {
      await Deno.writeTextFile(`${dir}/file`, "");
      for (const flag of ["--out", "--report", "--log"]) {
        const r = await runLoadlab(["attack", t.url, "-n", "5", "-q", flag, `${dir}/file/x`]);
        assertEquals(r.code, 5, `${flag}: ${r.stderr}`);
        assert(r.stderr.includes(`${flag} ${dir}/file/x: cannot write`), r.stderr);
      }
      const folder = await runLoadlab(["attack", t.url, "-n", "5", "-q", "--out", dir]);
      assertEquals(folder.code, 5, folder.stderr);
      assertEquals(t.received(), 0, "no request before the output is known to be writable");
    } finally {
      await t.close();
    }
  });
});

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 143]] as const) {
  pool.test(`attack exit ${code}: ${signal} stops the load, still writes the partial results`, async () => {
    await stopWith(signal, code);
  });
}

async function stopWith(signal: Deno.Signal, code: number): Promise<void> {
  await withTempDir(async (dir) => {
    const t = target();
    try {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL("../main.ts", import.meta.url).pathname,
          "attack",
          t.url,
          "-R",
          "50",
          "-d",
          "60s",
          "--no-live",
          "--out",
          `${dir}/results.json`,
        ],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const deadline = Date.now() + 30_000;
      while (t.received() < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      child.kill(signal);
      const out = await child.output();
      assertEquals(out.code, code, new TextDecoder().decode(out.stderr));
      const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert(results.runs[0].requests >= 10, JSON.stringify(results.runs[0].requests));
    } finally {
      await t.close();
    }
  });
}

pool.test("report exit 5 when the report cannot be written; serve: a port in use exit 2 before any start, a target that cannot start exit 3", async () => {
  await withTempDir(async (dir) => {
    const t = target();
    try {
      const made = await runLoadlab(["attack", t.url, "-n", "5", "-q", "--out", `${dir}/results.json`]);
      assertEquals(made.code, 0, made.stderr);
    } finally {
      await t.close();
    }
    await Deno.writeTextFile(`${dir}/file`, "");
    const report = await runLoadlab(["report", `${dir}/results.json`, "-o", `${dir}/file/report.html`]);
    assertEquals(report.code, 5, report.stderr);
  });
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = String((busy.addr as Deno.NetAddr).port);
    const serve = await runLoadlab(["serve", "--port", port]);
    assertEquals(serve.code, 2, serve.stderr);
    assert(serve.stderr.includes(`--port ${port}`) && serve.stderr.includes("in use"), serve.stderr);
    // A shared port is not checked first (it may be shared on purpose): the target's own start fails.
    const shared = await runLoadlab(["serve", "--reuse-port", "--port", port]);
    assertEquals(shared.code, 3, shared.stderr);
  } finally {
    busy.close();
  }
});
