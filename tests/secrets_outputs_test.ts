/**
 * End to end: a secret swept as a value (`query.api_key` over two keys) and a metrics receiver's
 * credentials reach no output in clear, not only results.json and the report: the terminal's run lines,
 * the metrics labels a real receiver decodes (OTLP protobuf and remote write), the request-log file names,
 * the live dashboard's stream from its first snapshot on, and a receiver's error body that echoes the
 * `Authorization` it was sent; `--resume` finds the runs by those names. Runs are short (built-in target,
 * a few hundred ms each) and on loopback.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, match as assertMatch, ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { readDashboard, startLoadlab } from "./background.ts";
import { metricsReceiver, otlpAttributes } from "./fixtures/metrics_receiver.ts";
import type { ResultsFile } from "../results/mod.ts";

const KEYS = ["QKALPHA1111", "QKBRAVO2222"];
const TOKEN = /^\[redacted 11 chars sha256:[0-9a-f]{8}\]$/;

const EXPERIMENT = `name: swept
targets:
  plain: { kind: builtin }
loads:
  short: { model: connections, connections: 1, duration: 400ms, requests: [/json] }
sweeps:
  - { parameter: query.api_key, values: [${KEYS.join(", ")}] }
interval: 100ms
log: true
`;

function leaked(text: string, secrets = KEYS): string[] {
  return secrets.filter((s) => text.includes(s));
}

/** Every file name under `dir`, recursively. */
async function fileNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    names.push(entry.name);
    if (entry.isDirectory) names.push(...await fileNames(`${dir}/${entry.name}`));
  }
  return names;
}

Deno.test("run: a swept secret query value is redacted in the run lines, metrics labels, log names and dashboard", async () => {
  const receiver = metricsReceiver();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/e.yaml`, EXPERIMENT);
      const bg = await startLoadlab([
        "run",
        `${dir}/e.yaml`,
        "--out-dir",
        `${dir}/out`,
        "--out",
        `otlp=${receiver.url}/v1/metrics`,
        "--out",
        `prometheus-remote-write=${receiver.url}/api/v1/write`,
        "--dashboard",
      ], /dashboard: (http:\/\/\S+)/);
      const { stream, code, stdout, stderr } = await readDashboard(bg);
      assertEquals(code, 0, stderr);
      assertEquals(leaked(stdout + stderr), [], stdout + stderr);
      assertMatch(stdout, /run 1\/2 plain\/short\/query\.api_key=\[redacted 11 chars sha256:[0-9a-f]{8}\]/);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(results.runs.map((r) => r.statusCodes), [{ "200": results.runs[0].requests }, {
        "200": results.runs[1].requests,
      }]);
      for (const file of ["results.json", "report.html"]) {
        assertEquals(leaked(await Deno.readTextFile(`${dir}/out/${file}`)), [], file);
      }

      // The dashboard: its first snapshot (results.json as the first run starts), run starts, every event.
      assertMatch(stream, /event: snapshot/);
      assertMatch(stream, /event: run-start/);
      assertEquals(leaked(stream), []);

      // Metrics labels as the receiver decoded them: the sweep label and the run name carry the token.
      const otlp = otlpAttributes(receiver.otlp);
      const written = receiver.remoteWrite.flat();
      ok(otlp.length > 0 && written.length > 0, "both outputs delivered");
      for (const labels of [...otlp, ...written]) {
        assertEquals(leaked(JSON.stringify(labels)), [], JSON.stringify(labels));
        assertMatch(labels.sweep_query_api_key, TOKEN);
      }
      assertEquals(new Set(otlp.map((l) => l.run)), new Set(results.runs.map((r) => r.name)));
      assertEquals(new Set(written.map((l) => l.run)), new Set(results.runs.map((r) => r.name)));

      // The request logs: one per run, named after the redacted name.
      const names = await fileNames(`${dir}/out`);
      assertEquals(leaked(names.join("\n")), [], names.join("\n"));
      assertEquals(names.filter((n) => n.endsWith(".csv") && n.includes("redacted_11_chars")).length, 2);

      // --resume pairs the planned runs with the file's by the same names: nothing runs again.
      const resumed = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`, "--resume"]);
      assertEquals(resumed.code, 0, resumed.stderr);
      ok(!/run \d\/\d/.test(resumed.stdout), resumed.stdout);
      const again: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(again.runs.map((r) => r.name), results.runs.map((r) => r.name));
    });
  } finally {
    await receiver.close();
  }
});

Deno.test("run --out with user:password: a receiver echoing Authorization in its 400 leaks neither the password nor the credential", async () => {
  const password = "pw4567xyzQ";
  const basic = btoa(`ada:${password}`);
  const receiver = metricsReceiver((req) => {
    const authorization = req.headers.get("authorization") ?? "";
    const decoded = atob(authorization.replace(/^Basic /, ""));
    return new Response(`denied: Authorization: ${authorization} (user ${decoded})`, { status: 400 });
  });
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/e.yaml`,
        "name: echo\ntargets: { plain: { kind: builtin } }\n" +
          "loads: { few: { model: count, requests: 50, connections: 1 } }\ninterval: 100ms\n",
      );
      const r = await loadlabInProcess([
        "run",
        `${dir}/e.yaml`,
        "--out-dir",
        `${dir}/out`,
        "--out",
        `otlp=http://ada:${password}@${receiver.url.slice("http://".length)}/v1/metrics`,
      ]);
      assertEquals(r.code, 0, r.stderr);
      const json = await Deno.readTextFile(`${dir}/out/results.json`);
      const html = await Deno.readTextFile(`${dir}/out/report.html`);
      const [exported] = (JSON.parse(json) as ResultsFile).export!;
      ok(exported.intervalsFailed >= 1, JSON.stringify(exported));
      assertMatch(exported.lastError!, /^HTTP 400: denied: Authorization: \[redacted \d+ chars sha256:/);
      for (
        const [what, text] of [["results", json], ["report", html], ["stdout", r.stdout], [
          "stderr",
          r.stderr,
        ]]
      ) {
        assertEquals(
          leaked(text, [password, basic, basic.slice(0, 12)]),
          [],
          `${what}: ${text.slice(0, 2000)}`,
        );
      }
      ok(r.stdout.includes("last error: HTTP 400: denied"), r.stdout);
    });
  } finally {
    await receiver.close();
  }
});
