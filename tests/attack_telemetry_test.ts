/**
 * `attack`, and `run` of a session script, against a local server watch that server's process (found by its
 * port): a short run's results carry its telemetry, also on a busy machine. Bounded: 2 s on one connection
 * each.
 */
import assert from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, withTarget, withTempDir } from "./helpers.ts";

Deno.test({
  name: "attack of a loopback server records that server's telemetry",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withTarget((url) =>
      withTempDir(async (dir) => {
        const args = [
          "attack",
          `${url}/`,
          "-c",
          "1",
          "-d",
          "2s",
          "--no-live",
          "--out",
          `${dir}/results.json`,
        ];
        const { code, stderr } = await runLoadlab(args);
        assert.equal(code, 0, stderr);
        const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
        const series = results.runs[0].telemetry ?? [];
        assert.ok(series.length > 0, "a telemetry series of the server's process");
      })
    ),
});

Deno.test({
  name: "run of a session script against a loopback server records that server's telemetry too",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withTarget((url) =>
      withTempDir(async (dir) => {
        await Deno.writeTextFile(
          `${dir}/one.ts`,
          `export const options = { targets: { app: { url: "${url}" } } };\n` +
            'export default async (s: { get(path: string): Promise<unknown> }) => { await s.get("/"); };\n',
        );
        const args = ["run", `${dir}/one.ts`, "-c", "1", "--duration", "2s", "--out-dir", `${dir}/out`];
        const { code, stderr } = await runLoadlab(args);
        assert.equal(code, 0, stderr);
        const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
        assert.ok((results.runs[0].telemetry ?? []).length > 0, "a telemetry series of the server's process");
      })
    ),
});
