/**
 * @module
 * One `loadlab run` per output folder: two real runs started at once into one folder, one runs and the
 * other refuses (exit 5) naming the first one's pid; a lock left by a run killed with SIGKILL is taken
 * over with a note. The target is a server of this test that holds every answer until the test lets it
 * go, so the winner certainly holds its lock while the other starts: no timing is assumed. One request
 * a run, on 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A loopback server whose answers wait for `release()`; `arrived` resolves at the first request. */
function heldTarget() {
  const arrived = Promise.withResolvers<void>(), released = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    arrived.resolve();
    await released.promise;
    return new Response("ok");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    arrived: arrived.promise,
    release: () => released.resolve(),
    close: async () => {
      released.resolve();
      await server.shutdown();
    },
  };
}

const experiment = (url: string) => `
name: locked
targets:
  app: { url: "${url}" }
loads:
  one: { model: count, requests: 1, connections: 1, timeout: 60s }
`;

/** `loadlab run FILE --out-dir DIR` (or `args`) as a child whose pid is known before it ends. */
function spawnRun(file: string, outDir: string, args = ["run", file, "--out-dir", outDir]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const output = child.output().then((out) => ({
    pid: child.pid,
    code: out.code,
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
  }));
  return { child, output };
}

Deno.test("two runs into one out folder at once: one runs, the other exits 5 naming its pid", async () => {
  const t = heldTarget();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/exp.yaml`, experiment(t.url));
      const a = spawnRun(`${dir}/exp.yaml`, `${dir}/out`), b = spawnRun(`${dir}/exp.yaml`, `${dir}/out`);
      // The winner's request is held, so it keeps the folder until one of the two has ended.
      const first = await Promise.race([a.output, b.output]);
      t.release();
      const [ra, rb] = await Promise.all([a.output, b.output]);
      const [winner, loser] = ra.code === 0 ? [ra, rb] : [rb, ra];
      assertEquals(first.pid, loser.pid, `${ra.text}\n---\n${rb.text}`);
      assertEquals([winner.code, loser.code], [0, 5], `${ra.text}\n---\n${rb.text}`);
      assert(
        new RegExp(`out: in use by another loadlab run \\(pid ${winner.pid}\\b`).test(loser.text),
        loser.text,
      );
      const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(results.runs.map((r: { name: string }) => r.name), ["app/one"]);
      assertEquals(results.runs[0].requests, 1);
    });
  } finally {
    await t.close();
  }
});

Deno.test("a lock left by a run killed with SIGKILL is taken over, with a note naming its pid", async () => {
  const t = heldTarget();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/exp.yaml`, experiment(t.url));
      const killed = spawnRun(`${dir}/exp.yaml`, `${dir}/out`);
      await t.arrived;
      killed.child.kill("SIGKILL");
      await killed.output;
      t.release();
      const next = spawnRun(`${dir}/exp.yaml`, `${dir}/out`);
      const after = await next.output;
      assertEquals(after.code, 0, after.text);
      assert(
        new RegExp(`took over the lock of pid ${killed.child.pid}, which is no longer running`).test(
          after.text,
        ),
        after.text,
      );
      const left = [...Deno.readDirSync(`${dir}/out`)].map((e) => e.name).sort();
      assertEquals(left, ["report.html", "results.json"], "the lock is removed at the end");
    });
  } finally {
    await t.close();
  }
});

Deno.test("two attacks writing one -o file at once: one writes it, the other exits 5 naming its pid", async () => {
  const t = heldTarget();
  try {
    await withTempDir(async (dir) => {
      const args = `attack ${t.url} -n 1 -c 1 --timeout 60s --no-live -o ${dir}/same.json`.split(" ");
      const attack = () => spawnRun("", "", args);
      const a = attack(), b = attack();
      const first = await Promise.race([a.output, b.output]);
      t.release();
      const [ra, rb] = await Promise.all([a.output, b.output]);
      const [winner, loser] = ra.code === 0 ? [ra, rb] : [rb, ra];
      assertEquals(first.pid, loser.pid, `${ra.text}\n---\n${rb.text}`);
      assertEquals([winner.code, loser.code], [0, 5], `${ra.text}\n---\n${rb.text}`);
      assert(
        new RegExp(`same.json: in use by another loadlab attack \\(pid ${winner.pid}\\b`).test(loser.text),
      );
      assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/same.json`)).runs[0].requests, 1);
      assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["same.json"], "the lock is removed");
    });
  } finally {
    await t.close();
  }
});
