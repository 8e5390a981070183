/**
 * @module
 * Outputs that are not plain files, end to end: a symlink is followed and the file it names replaced
 * (the link stays); a FIFO is written through once a reader has it, and without one the command fails
 * (exit 5) instead of hanging; a character device is written through and never replaced, and no write
 * probe or temp file appears beside it. Devices are made with mknod in a temp folder (root only;
 * skipped with the reason otherwise), never anything under /dev. And an output that is one of the inputs
 * (the same file by name, through a symlink or a hard link) is refused with exit 2, the input intact. A
 * piped stdout named by its /proc link (what /dev/stdout names) is written into.
 */
import { deepStrictEqual as assertEquals, match as assertMatch, ok as assert } from "node:assert/strict";
import { makeSingleAttack } from "./fixtures/make_results.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

const isRoot = Deno.uid() === 0;
const linux = Deno.build.os === "linux";
if (!isRoot) console.log("skipped: the character-device cases need root (mknod)");

async function withResults(fn: (dir: string, results: string) => Promise<void>): Promise<void> {
  await withTempDir(async (dir) => {
    const results = `${dir}/results.json`;
    await Deno.writeTextFile(results, JSON.stringify(makeSingleAttack()));
    await fn(dir, results);
  });
}

function sh(command: string): void {
  const out = new Deno.Command("sh", { args: ["-c", command], stderr: "piped" }).outputSync();
  if (!out.success) throw new Error(`${command}: ${new TextDecoder().decode(out.stderr)}`);
}

/** Names in `dir`, sorted: a leftover probe or temp file shows up here. */
function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/** Cases at once: each waits on its `loadlab` children, the FIFO case on a reader that never comes. */
const pool = testPool(4);

pool.test("report -o a symlink replaces the file it names and keeps the link", async () => {
  await withResults(async (dir, results) => {
    await Deno.mkdir(`${dir}/pages`);
    await Deno.writeTextFile(`${dir}/pages/real.html`, "old");
    await Deno.symlink("pages/real.html", `${dir}/link.html`);
    const out = await runLoadlab(["report", results, "-o", `${dir}/link.html`]);
    assertEquals(out.code, 0, out.stderr);
    assert((await Deno.lstat(`${dir}/link.html`)).isSymlink, "the link must stay a link");
    assertMatch(await Deno.readTextFile(`${dir}/pages/real.html`), /<html/i);
    assertEquals(listing(`${dir}/pages`), ["real.html"]);
  });
});

pool.test(
  "report -o a FIFO writes through to its reader; without a reader it fails, the FIFO kept",
  async () => {
    await withResults(async (dir, results) => {
      const fifo = `${dir}/page.fifo`;
      sh(`mkfifo '${fifo}'`);
      const reader = new Deno.Command("cat", { args: [fifo], stdout: "piped" }).output();
      const out = await runLoadlab(["report", results, "-o", fifo]);
      assertEquals(out.code, 0, out.stderr);
      assertMatch(new TextDecoder().decode((await reader).stdout), /<html/i);
      assert((await Deno.lstat(fifo)).isFifo, "the FIFO must stay a FIFO");

      const alone = await runLoadlab(["report", results, "-o", fifo]);
      assertEquals(alone.code, 5, alone.stderr);
      assertMatch(alone.stderr, /page\.fifo.*FIFO no process read/);
      assert((await Deno.lstat(fifo)).isFifo, "the FIFO must stay a FIFO");
      assertEquals(listing(dir), ["page.fifo", "results.json"]);
    });
  },
  { ignore: !linux },
);

pool.test(
  "report -o and attack -o/--report a character device: written through, not replaced, no probe file",
  async () => {
    await withResults(async (dir, results) => {
      await Deno.mkdir(`${dir}/dev`);
      const sink = `${dir}/dev/null`;
      sh(`mknod '${sink}' c 1 3`); // the null device, made in a temp folder: nothing under /dev is touched
      const report = await runLoadlab(["report", results, "-o", sink]);
      assertEquals(report.code, 0, report.stderr);
      assert((await Deno.lstat(sink)).isCharDevice, "report -o must not replace the device");

      const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
      try {
        const url = `http://127.0.0.1:${server.addr.port}/`;
        const attack = await runLoadlab([
          "attack",
          url,
          "-c",
          "1",
          "-d",
          "300ms",
          "-o",
          sink,
          "--report",
          sink,
        ]);
        assertEquals(attack.code, 0, attack.stderr);
      } finally {
        await server.shutdown();
      }
      assert((await Deno.lstat(sink)).isCharDevice, "attack -o must not replace the device");
      assertEquals(listing(`${dir}/dev`), ["null"], "no probe or temp file beside the device");
    });
  },
  { ignore: !linux || !isRoot },
);

pool.test("report -o the process's own piped stdout (/proc/self/fd/1, a link to pipe:[N]) writes into the pipe", async () => {
  await withResults(async (dir, results) => {
    const out = await runLoadlab(["report", results, "-o", "/proc/self/fd/1"]);
    assertEquals(out.code, 0, out.stderr);
    assertMatch(out.stdout, /<html/i);
    assertEquals(listing(dir), ["results.json"]);
  });
});

pool.test("report -o an input (same name, symlink, hard link) is refused with exit 2, the input intact", async () => {
  await withResults(async (dir, results) => {
    const before = await Deno.readTextFile(results);
    await Deno.symlink(results, `${dir}/sym.json`);
    await Deno.link(results, `${dir}/hard.json`);
    for (const output of [results, `${dir}/sym.json`, `${dir}/hard.json`]) {
      const out = await runLoadlab(["report", results, "-o", output]);
      assertEquals(out.code, 2, `${output}: ${out.stderr}`);
      assertMatch(out.stderr, /-o .* is the same file as the input .*results\.json.*give -o another path/);
      assertEquals(out.stderr.trim().split("\n").length, 1);
    }
    assertEquals(await Deno.readTextFile(results), before);
  });
});

pool.test("run --summary over the experiment file is refused with exit 2 before anything runs", async () => {
  await withTempDir(async (dir) => {
    const experiment = `${dir}/exp.yaml`;
    const text = 'name: same\ntargets:\n  t: { url: "http://127.0.0.1:9/" }\n' +
      "loads:\n  l: { model: connections, connections: 1, duration: 100ms }\n";
    await Deno.writeTextFile(experiment, text);
    await Deno.symlink(experiment, `${dir}/summary.md`);
    const out = await runLoadlab([
      "run",
      experiment,
      "--out-dir",
      `${dir}/out`,
      "--summary",
      `${dir}/summary.md`,
    ]);
    assertEquals(out.code, 2, out.stderr);
    assertMatch(out.stderr, /--summary .*summary\.md is the same file as the experiment file/);
    assertEquals(await Deno.readTextFile(experiment), text);
    assertEquals(listing(dir), ["exp.yaml", "summary.md"]);
  });
});

/** `fn` with a temp folder and a loopback server that counts the requests it got; shut after. */
async function withCountingServer(fn: (dir: string, url: string, requests: () => number) => Promise<void>) {
  await withTempDir(async (dir) => {
    let requests = 0;
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
      requests++;
      return new Response("ok");
    });
    try {
      await fn(dir, `http://127.0.0.1:${server.addr.port}/`, () => requests);
    } finally {
      await server.shutdown();
    }
  });
}

pool.test("attack --log a FIFO is refused with exit 2 before any load, never a wait without end", async () => {
  await withCountingServer(async (dir, url, requests) => {
    sh(`mkfifo '${dir}/log.fifo'`);
    const out = await runLoadlab(["attack", url, "-n", "5", "-c", "1", "-q", "--log", `${dir}/log.fifo`]);
    assertEquals(out.code, 2, out.stderr);
    assertMatch(out.stderr, /--log .*FIFO/);
    assertEquals(requests(), 0);
  });
});

pool.test("two outputs naming one file (by name or through a symlink) are refused with exit 2, nothing sent or written", async () => {
  await withCountingServer(async (dir, url, requests) => {
    await Deno.symlink("out.json", `${dir}/link.html`);
    const load = ["attack", url, "-n", "5", "-c", "1", "-q"];
    for (
      const outputs of [
        ["-o", `${dir}/out.json`, "--report", `${dir}/out.json`],
        ["-o", `${dir}/out.json`, "--report", `${dir}/link.html`],
        ["-o", `${dir}/out.json`, "--summary", `${dir}/./out.json`],
      ]
    ) {
      const out = await runLoadlab([...load, ...outputs]);
      assertEquals(out.code, 2, out.stderr);
      assertMatch(out.stderr, /the same file/);
    }
    const devices = await runLoadlab([...load, "-o", "/dev/null", "--report", "/dev/null"]);
    assertEquals(devices.code, 0, devices.stderr);
    assertEquals(requests(), 5);
    assertEquals(listing(dir), ["link.html"]);
  });
});
