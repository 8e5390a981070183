/**
 * End to end: names a user gives (a session script's request and check names and its tags, a flow's step
 * and check names) reach every output bounded in length and free of control characters: a 1 MiB request name
 * is a readable prefix and a hash everywhere (results.json, report.html, summary.md, the terminal, OTLP
 * labels a real receiver decodes), and CR LF, ESC, NUL, U+202E and zero-width characters appear in none; a
 * name that cleaning changed stays apart from the plain one it then looks like. Built-in target, a
 * count of sessions on loopback.
 */
import { ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { metricsReceiver, otlpAttributes } from "./fixtures/metrics_receiver.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SCRIPT = new URL("./fixtures/scripts/hostile_names.ts", import.meta.url).pathname;
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

const FLOW = `name: names
targets:
  app: { kind: builtin }
loads:
  once: { model: count, requests: 2, connections: 1 }
flows:
  - name: "flow\\u202eevil"
    steps:
      - get: /json
        label: "step\\r\\nrun 9/9 fake  [ok]"
        expect: [{ contains: "chk\\u001b[2Jcleared\\r\\nrun 9/9 fake" }]
`;

/** Runs `loadlab run SOURCE` with every output; the terminal's text and every output file's. */
async function runAll(dir: string, source: string, metricsUrl: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", source, "--out-dir", `${dir}/out`, "--summary", `${dir}/out/summary.md`]
      .concat(["--out", `otlp=${metricsUrl}/v1/metrics`]),
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const terminal = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const files: Array<[string, string]> = [["terminal", terminal]];
  for (const name of ["results.json", "report.html", "summary.md"]) {
    files.push([name, await Deno.readTextFile(`${dir}/out/${name}`)]);
  }
  return { code: out.code, terminal, files };
}

for (const [what, source] of [["script", SCRIPT], ["flow", "flow.yaml"]] as const) {
  Deno.test(`${what}: names reach every output bounded and one line, without control characters`, async () => {
    const receiver = metricsReceiver();
    try {
      await withTempDir(async (dir) => {
        await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
        const path = source === "flow.yaml" ? `${dir}/flow.yaml` : source;
        const { terminal, files } = await runAll(dir, path, receiver.url);
        const results = JSON.parse(files[1][1]);
        ok(results.runs[0].requests > 0, terminal);
        for (const [where, text] of files) {
          const line = text.split("\n").find((l) => CONTROL.test(l));
          ok(line === undefined, `${where} has a control character: ${JSON.stringify(line)?.slice(0, 200)}`);
          ok(!text.includes("n".repeat(2_000)), `${where} keeps the 1 MiB name`);
          ok(!/^run 9\/9 fake/m.test(text), `${where} has a forged line`);
        }
        if (what === "script") {
          ok(files[1][1].length < 400_000, `results.json is ${files[1][1].length} bytes`);
          ok(
            /huge-n+… \(1,048,581 chars, sha256:[0-9a-f]{8}\)/.test(files[1][1]),
            "a readable prefix and hash",
          );
          ok(files[1][1].includes('"admin"'), "the plain check name as given");
          ok(
            /"ad\\\\u200bmin\\\\u200e \(cleaned, sha256:[0-9a-f]{8}\)"/.test(files[1][1]),
            "the cleaned one marked apart, its hidden characters shown",
          );
        }
        const labels = otlpAttributes(receiver.otlp);
        ok(labels.length > 0, "metrics delivered");
        for (const l of labels) {
          for (const value of Object.values(l)) {
            ok(new TextEncoder().encode(value).length < 2_048, `label of ${value.length} chars`);
            ok(!CONTROL.test(value) && !/[\r\n]/.test(value), JSON.stringify(value).slice(0, 200));
          }
        }
      });
    } finally {
      await receiver.close();
    }
  });
}
