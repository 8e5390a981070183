/**
 * End-to-end tests of the built-in target as real processes: several instances behind the balancer or
 * sharing a port, Redis auto-start for `/redis/:key`, CPU pinning, and no orphans even when loadlab
 * itself is killed.
 */
import { deepStrictEqual as assertEquals, match as assertMatch, ok as assert } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { requireProgram } from "./helpers.ts";

function alive(pid: number): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1][0] !== "Z";
  } catch {
    return false;
  }
}

async function waitGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && pids.some(alive)) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(alive);
}

Deno.test("one instance: serves the endpoints from its own process, gone after stop", async () => {
  const target = await startTarget({ kind: "builtin" });
  try {
    assertMatch(target.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assertEquals(await (await fetch(`${target.url}/json`)).json(), { message: "Hello, World!" });
    assertEquals(
      (await fetch(`${target.url}/error/1`).then(async (r) => (await r.body?.cancel(), r))).status,
      500,
    );
    assert(target.processes[0].pid !== Deno.pid);
    assertEquals(target.info, { kind: "builtin", runtime: `deno ${Deno.version.deno}` });
    await (await fetch(`${target.url}/home`)).text();
    assertEquals(await target.stats(), {
      cmsQueries: 3,
      cmsQueued: 0,
      cmsQueueWaitMs: 0,
      cmsAcquireTimeouts: 0,
    });
  } finally {
    await target.stop();
  }
  assertEquals(await waitGone(target.processes.map((p) => p.pid), 2000), []);
});

Deno.test("balancer: round-robin spreads requests evenly over the instances", async () => {
  const target = await startTarget({ kind: "builtin", instances: 3, balance: "round-robin" });
  try {
    assertEquals(target.processes.map((p) => p.name), ["target", "target#2", "target#3", "balancer"]);
    for (let i = 0; i < 9; i++) await (await fetch(`${target.url}/json`)).text();
    await Promise.all([1, 2, 3].map(async () => await (await fetch(`${target.url}/home`)).text()));
    const { instance1, instance2, instance3, cmsQueries } = await target.stats();
    assertEquals({ instance1, instance2, instance3 }, { instance1: 4, instance2: 4, instance3: 4 });
    assertEquals(cmsQueries, 9, "the instances' counters are summed");
  } finally {
    await target.stop();
  }
});

Deno.test("balancer: least-connections avoids the instance busy with a slow request", async () => {
  const target = await startTarget({ kind: "builtin", instances: 2, balance: "least-connections" });
  try {
    // Long enough to outlast the 4 requests on a busy machine; they start once the balancer has sent it.
    const slow = fetch(`${target.url}/sleep?ms=3000`).then((r) => r.json());
    const deadline = Date.now() + 10_000;
    while (Object.values(await target.stats()).every((n) => n === 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (let i = 0; i < 4; i++) await (await fetch(`${target.url}/json`)).text();
    assertEquals(await slow, { sleptMs: 3000 });
    const { instance1, instance2 } = await target.stats();
    assertEquals({ instance1, instance2 }, { instance1: 1, instance2: 4 });
  } finally {
    await target.stop();
  }
});

Deno.test("reuse-port: instances share one port and the kernel spreads connections", async () => {
  const target = await startTarget({ kind: "builtin", instances: 2, balance: "reuse-port" });
  try {
    const servedBy = new Set<number>();
    for (let i = 0; i < 24 && servedBy.size < 2; i++) {
      const client = Deno.createHttpClient({}); // a fresh connection each time
      const res = await fetch(`${target.url}/__loadlab/stats`, { client });
      servedBy.add((await res.json()).pid);
      client.close();
    }
    assertEquals([...servedBy].sort(), target.processes.map((p) => p.pid).sort());
  } finally {
    await target.stop();
  }
});

Deno.test({
  name: "/redis/:key: redis: true starts a private redis-server, seeds it, stops it afterwards",
  ignore: !requireProgram("redis-server"),
  async fn() {
    const target = await startTarget({ kind: "builtin", redis: true });
    try {
      assertMatch(target.redisUrl!, /^redis:\/\/127\.0\.0\.1:\d+$/);
      const body = await (await fetch(`${target.url}/redis/key:7`)).json();
      assertEquals(body.key, "key:7");
      assertMatch(body.value, /^value-7-x+$/);
      assertEquals(
        (await fetch(`${target.url}/redis/absent`).then(async (r) => (await r.body?.cancel(), r))).status,
        404,
      );
    } finally {
      await target.stop();
    }
    assertEquals(await waitGone([target.redisPid!], 2000), []);
  },
});

Deno.test({
  name: "cpuAffinity pins the target processes with taskset",
  ignore: !requireProgram("taskset"),
  async fn() {
    const target = await startTarget({ kind: "builtin", cpuAffinity: [0] });
    try {
      const status = await Deno.readTextFile(`/proc/${target.processes[0].pid}/status`);
      assertEquals(/Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1], "0");
      assertEquals(await fetch(`${target.url}/`).then((r) => r.text()), "Hello, World!");
    } finally {
      await target.stop();
    }
  },
});

Deno.test("no orphans: target processes exit when the loadlab process is SIGKILLed", async () => {
  const script = new URL("./fixtures/start_and_hang.ts", import.meta.url).pathname;
  const parent = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", script],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = parent.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + 30_000;
  while (!text.includes("\n") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const { pids } = JSON.parse(text);
  assertEquals(pids.length, 3);
  assert(pids.every(alive));
  parent.kill("SIGKILL");
  await parent.status;
  await reader.cancel();
  assertEquals(await waitGone(pids, 5000), [], "children must notice their parent is gone");
});

Deno.test("an invalid built-in spec names the field and the fix", async () => {
  const err = await startTarget({ kind: "builtin", instances: 0 }).catch((e) => e);
  assertMatch(err.message, /instances: instances must be >= 1/);
});
