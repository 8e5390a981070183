/**
 * Cross-check with Artillery 2 itself: one script with the `metrics-by-endpoint` plugin run by `artillery
 * run` and by `loadlab run` against the same counting target in this process. Artillery's per-endpoint
 * counters (`plugins.metrics-by-endpoint.<name>.codes.200`) and loadlab's endpoints must name the same
 * endpoints with the same counts, and both must be what the target received.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

function countingTarget() {
  const byRoute: Record<string, number> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname}`;
    byRoute[route] = (byRoute[route] ?? 0) + 1;
    await req.body?.cancel();
    return new Response("ok");
  });
  return { port: server.addr.port, byRoute, close: () => server.shutdown() };
}

/** 6 arrivals, each one session of three requests: unnamed with a query, named, and a second named one. */
function script(port: number, options = "{}"): string {
  return `
config:
  target: http://127.0.0.1:${port}
  phases: [{ duration: 1, arrivalCount: 6 }]
  plugins:
    metrics-by-endpoint: ${options}
scenarios:
  - flow:
      - get: { url: "/home?page=1" }
      - post: { url: /login, name: login, json: { user: ada } }
      - get: { url: /json, name: data }
`;
}

/** Artillery's counters of the plugin, as endpoint name -> responses. */
function artilleryCounts(report: any): Record<string, number> {
  const prefix = "plugins.metrics-by-endpoint.";
  const out: Record<string, number> = {};
  for (const [key, n] of Object.entries(report.aggregate.counters as Record<string, number>)) {
    const m = key.startsWith(prefix) ? /^(.*)\.codes\.\d+$/.exec(key.slice(prefix.length)) : null;
    if (m) out[m[1]] = (out[m[1]] ?? 0) + n;
  }
  return out;
}

async function runArtillery(file: string, output: string): Promise<void> {
  const out = await new Deno.Command("artillery", {
    args: ["run", "--output", output, file],
    env: { ARTILLERY_DISABLE_TELEMETRY: "true", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`artillery failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** The cases, and in each Artillery's run and loadlab's, at once: each mostly waits on a process start. */
const pool = testPool(2);

/** Runs `script` against a counting target of its own with `run`; returns what the target received. */
async function against(file: string, options: string, run: (file: string) => Promise<void>) {
  const target = countingTarget();
  try {
    await Deno.writeTextFile(file, script(target.port, options));
    await run(file);
  } finally {
    await target.close();
  }
  return target.byRoute;
}

for (
  const [options, names] of [
    ["", ["/home", "/json (data)", "/login (login)"]],
    ["{}", ["/home?page=1", "/json (data)", "/login (login)"]],
    ["{ useOnlyRequestNames: true }", ["/home?page=1", "data", "login"]],
  ] as const
) {
  pool.test(`metrics-by-endpoint ${options}: loadlab's endpoints and counts are Artillery's`, async () => {
    if (!requireProgram("artillery")) return;
    await withTempDir(async (dir) => {
      const [, received] = await Promise.all([
        against(`${dir}/artillery.yml`, options, (file) => runArtillery(file, `${dir}/artillery.json`)),
        against(`${dir}/loadlab.yml`, options, async (file) => {
          const r = await runLoadlab(["run", file, "--out-dir", `${dir}/out`]);
          assertEquals(r.code, 0, r.stdout + r.stderr);
        }),
      ]);
      const expected = artilleryCounts(JSON.parse(await Deno.readTextFile(`${dir}/artillery.json`)));
      assertEquals(Object.keys(expected).sort(), [...names]);
      assertEquals(Object.values(expected), [6, 6, 6]);
      const run = (JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)) as ResultsFile).runs[0];
      const counts = Object.fromEntries(run.endpoints!.map((e) => [e.name, e.requests]));
      assertEquals(counts, expected);
      assertEquals(Object.values(received), [6, 6, 6]);
    });
  });
}
