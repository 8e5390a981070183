/**
 * End to end: an experiment file's runs are bounded and each has a name of its own. A small file asking
 * for a billion repeats or a 3,000 x 3,000 grid is refused with the path and the fix before any load
 * (it held gigabytes planning the runs, then crashed out of memory or never started); a sweep value
 * written twice, or twice in another form (1s and 1000ms, an NFC and an NFD "é"), is refused at its
 * index (in sequential order it made two runs of one name, whose findings read as repeats of one point).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";

const BASE = `name: bounded
targets:
  app: { kind: builtin }
loads:
  once: { model: count, requests: 2, connections: 1 }
`;

/** `loadlab run` of `yaml`: exit code, stderr, and whether the out dir was made (it is, only to run). */
async function run(yaml: string): Promise<{ code: number; stderr: string; started: boolean }> {
  let result = { code: -1, stderr: "", started: false };
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/exp.yaml`, yaml);
    const out = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    const started = await Deno.stat(`${dir}/out`).then(() => true, () => false);
    result = { code: out.code, stderr: out.stderr, started };
  });
  return result;
}

const values = (n: number) => `[${Array.from({ length: n }, (_, i) => i + 1).join(", ")}]`;

const CASES: Array<{ name: string; yaml: string; line: RegExp }> = [
  {
    name: "a billion repeats",
    yaml: BASE + "repeats: 1000000000\n",
    line: /exp\.yaml: repeats: 1,000,000,000 runs .*at most 10,000.*: /,
  },
  {
    name: "a 3,000 x 3,000 grid",
    yaml: BASE + `grid: true\nsweeps:\n  - { parameter: query.a, values: ${values(3000)} }\n` +
      `  - { parameter: query.b, values: ${values(3000)} }\n`,
    line: /exp\.yaml: sweeps: 9,000,000 runs .*at most 10,000/,
  },
  {
    name: "a sweep value twice",
    yaml: BASE + "order: sequential\nsweeps: [{ parameter: query.x, values: [a, b, a] }]\n",
    line: /exp\.yaml: sweeps\[0\]\.values\[2\]: "a" is values\[0\] again.*remove one/,
  },
  {
    name: "one duration written two ways",
    yaml: BASE.replace("model: count, requests: 2", "model: connections, duration: 1s") +
      "order: sequential\nsweeps: [{ parameter: load.duration, values: [1s, 1000ms] }]\n",
    line: /exp\.yaml: sweeps\[0\]\.values\[1\]: 1000 is values\[0\] again.*remove one/,
  },
  {
    name: "one word in two Unicode forms",
    yaml: BASE + 'sweeps: [{ parameter: query.x, values: ["\\u00e9", "e\\u0301"] }]\n',
    line: /exp\.yaml: sweeps\[0\]\.values\[1\]: .* is values\[0\] in another Unicode form.*write both/,
  },
];

for (const c of CASES) {
  Deno.test(`experiment runs: ${c.name} is refused with the path and the fix, before any load`, async () => {
    const started = Date.now();
    const { code, stderr, started: ran } = await run(c.yaml);
    assertEquals(code, 2, stderr);
    ok(c.line.test(stderr), stderr.slice(0, 2_000));
    ok(!ran, "the out dir was made: a load started");
    ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
  });
}

Deno.test("experiment runs: two sweeps of one parameter giving one value twice are refused", async () => {
  const { code, stderr } = await run(
    BASE + "order: sequential\nsweeps:\n  - { parameter: query.x, values: [a, b] }\n" +
      "  - { parameter: query.x, values: [c, a] }\n",
  );
  assertEquals(code, 2, stderr);
  ok(/exp\.yaml: sweeps: two runs would be named "app\/once\/query\.x=a".*give each/.test(stderr), stderr);
});
