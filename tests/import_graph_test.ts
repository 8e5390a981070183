/**
 * @module
 * Keeps the layers of docs/ARCHITECTURE.md true. The graph is Deno's own (`deno info` from every entry
 * point: main.ts, the worker isolate, the target child, the build scripts; tests/import_graph.ts), the
 * rules are tests/import_rules.ts: the `ALLOWED` table of layers, the parts of targets/ and the protocol
 * rooms of runner/http/ kept apart, no import cycle, and pure folders without `Deno.*` or a `node:` module
 * with I/O. A rule broken here is fixed in the code (or the doc and the table change together), never
 * listed as an exception. The last tests feed each rule a graph or a source made to break it, so none of
 * them passes by seeing nothing.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { codeText } from "./code_text.ts";
import { entryPoints, importGraph, productFiles, staticImports } from "./import_graph.ts";
import {
  cycleGroups,
  denoUses,
  type Graph,
  layerViolations,
  nodeIoImports,
  oneCycle,
  roomViolations,
  targetPartViolations,
} from "./import_rules.ts";

const ROOT = new URL("../", import.meta.url);

let real: Promise<{ files: string[]; entries: string[]; graph: Graph }> | undefined;
/** The product's files, entry points and graph, read once for all the tests of this file. */
function product() {
  real ??= (async () => {
    const files = await productFiles(ROOT);
    const entries = await entryPoints(ROOT, files);
    return { files, entries, graph: await importGraph(ROOT, entries) };
  })();
  return real;
}

Deno.test("the entry points reach every product file", async () => {
  const { files, entries, graph } = await product();
  for (const entry of ["main.ts", "runner/worker/worker.ts", "targets/child_main.ts"]) {
    assertEquals(entries.includes(entry), true, `${entry} is not found as an entry point`);
  }
  // A file no entry point reaches is dead code, or started in a way entryPoints does not know yet.
  assertEquals(files.filter((f) => !graph.has(f)), []);
});

Deno.test("each layer imports only the layers below it", async () => {
  const violations = layerViolations((await product()).graph);
  assertEquals(violations, [], violations.map((v) => `import against the layers: ${v}`).join("\n"));
});

Deno.test("the parts of targets/ do not import each other", async () => {
  const { graph } = await product();
  assertEquals(targetPartViolations(graph), []);
  // The rule has something to hold: the parts exist and the top of targets/ uses them.
  for (const part of ["app", "proxy", "balancer"]) {
    assertEquals(
      (graph.get("targets/child_main.ts") ?? []).some((f) => f.startsWith(`targets/${part}/`)),
      true,
    );
  }
});

Deno.test("the protocol rooms of runner/http/ do not import each other", async () => {
  assertEquals(roomViolations((await product()).graph), []);
});

Deno.test("main.ts reads no command's modules before it runs one: each is named by URL", async () => {
  // `deno run` reads the graph of every string-literal import, dynamic ones too, before the first line.
  const read = [...(await importGraph(ROOT, ["main.ts"])).keys()];
  assertEquals(read.filter((file) => /^cli\/(run|attack|ghz|report_cmd|serve_cmd)/.test(file)), []);
  // The rule has something to hold: the early start is read, and the graph test reaches each command.
  assertEquals(read.includes("cli/early_start.ts"), true);
  const entries = await entryPoints(ROOT, await productFiles(ROOT));
  assertEquals(["cli/run/command.ts", "cli/attack/command.ts"].filter((f) => !entries.includes(f)), []);
});

Deno.test("attack loads what only some runs, or only the end of a run, need when it needs it", async () => {
  const loaded = await staticImports(ROOT, "cli/attack/command.ts");
  const late = [
    ["report/html/render.ts", "cli/dashboard/server.ts", "report/ci/summary.ts"],
    ["report/terminal/summary.ts", "cli/metrics_out/exporter.ts", "targets/start.ts"],
    // The end of the run: the redaction of results and the writer of results files.
    ["results/redact_results.ts", "results/io.ts"],
    ["runner/script/k6/metrics_channel.ts"],
  ].flat();
  assertEquals(late.filter((file) => loaded.includes(new URL(file, ROOT).href)), []);
});

Deno.test("run loads the dashboard, the metrics outputs and the k6 and Locust summaries when it needs them", async () => {
  const loaded = await staticImports(ROOT, "cli/run/command.ts");
  const late = ["cli/dashboard/server.ts", "cli/metrics_out/exporter.ts", "cli/k6/summary.ts"]
    .concat(["runner/script/locust/stats.ts"]);
  assertEquals(late.filter((file) => loaded.includes(new URL(file, ROOT).href)), []);
});

Deno.test("run loads protobuf.js only to plan a file that speaks gRPC", async () => {
  // protobuf.js costs a process about 140 ms and 20 MB: planning imports the gRPC reader for a `grpc:`
  // section or a flow's gRPC step, never for every run.
  const loaded = await staticImports(ROOT, "cli/run/command.ts");
  const late = ["scenarios/grpc/read.ts", "runner/http/grpc/schema.ts"].map((file) =>
    new URL(file, ROOT).href
  )
    .concat(["npm:protobufjs@^8.8.1"]);
  assertEquals(late.filter((specifier) => loaded.includes(specifier)), []);
  // The rule has something to hold: the gRPC section's schema is loaded, and the reader names the package.
  assertEquals(loaded.includes(new URL("scenarios/grpc/experiment.ts", ROOT).href), true);
  assertEquals((await staticImports(ROOT, "scenarios/grpc/read.ts")).includes("npm:protobufjs@^8.8.1"), true);
});

Deno.test("run loads the k6 and Locust converters only for a script of theirs", async () => {
  // A k6 script is told by parsing it (acorn) and a locustfile by the Python parser: each is imported when
  // a run names a script of that kind, never for an experiment file.
  const loaded = await staticImports(ROOT, "cli/run/command.ts");
  const late = ["runner/script/k6/convert/converted_file.ts", "runner/script/k6/convert/convert.ts"]
    .concat(["runner/script/locust/file.ts", "runner/script/locust/convert.ts", "cli/k6/source.ts"])
    .map((file) => new URL(file, ROOT).href).concat(["npm:acorn@^8.15.0", "npm:@lezer/python@^1.1.19"]);
  assertEquals(late.filter((specifier) => loaded.includes(specifier)), []);
  // The rule has something to hold: the run's script check is loaded, and the packages are named as loaded.
  assertEquals(loaded.includes(new URL("cli/run/script_check.ts", ROOT).href), true);
  const convert = await staticImports(ROOT, "runner/script/k6/convert/convert.ts");
  assertEquals(convert.includes("npm:acorn@^8.15.0"), true);
});

Deno.test("a load worker loads a protocol's connections, flows or a script only for a run of them", async () => {
  const loaded = await staticImports(ROOT, "runner/worker/worker.ts");
  const late = ["runner/http/h2/connection.ts", "runner/http/ws/connection.ts", "runner/http/grpc/answer.ts"]
    .concat(["runner/http/h3/connection.ts", "runner/script/load.ts", "runner/script/sessions/session.ts"])
    .concat(["runner/load/flow_session.ts", "runner/load/ws_steps.ts", "runner/http/h2/request.ts"]);
  assertEquals(late.filter((file) => loaded.includes(new URL(file, ROOT).href)), []);
  // The rule has something to hold: the HTTP/1.1 connection is loaded.
  assertEquals(loaded.includes(new URL("runner/http/h1/connection.ts", ROOT).href), true);
});

Deno.test("a script host's isolate loads nothing that reads a run's inputs before they arrive", async () => {
  // It may start before the command knows the run (cli/early_start.ts): these read k6's flags and the -e
  // variables as they load, so they load with the script, after its import request brought the inputs.
  const loaded = await staticImports(ROOT, "runner/script/host/hooks_worker.ts");
  const late = [
    "runner/script/k6/runtime.ts",
    "runner/script/k6/points_out.ts",
    "runner/script/k6/http_debug.ts",
  ];
  assertEquals(late.filter((file) => loaded.includes(new URL(file, ROOT).href)), []);
  // The rule has something to hold: the k6 runtime reads them where the host imports it.
  assertEquals(
    (await staticImports(ROOT, "runner/script/k6/http.ts")).some((s) => s.endsWith("k6/runtime.ts")),
    true,
  );
});

Deno.test("a script host's isolate loads no zod; load isolates read results' keys without their schemas", async () => {
  // zod costs an isolate 20 ms idle, over 100 ms on a busy machine, before a script's options are read.
  const host = await staticImports(ROOT, "runner/script/host/hooks_worker.ts");
  assertEquals(host.filter((s) => s.startsWith("npm:zod")), []);
  const values = new URL("results/schema/values.ts", ROOT).href;
  for (const entry of ["runner/script/host/hooks_worker.ts", "runner/worker/worker.ts"]) {
    const loaded = await staticImports(ROOT, entry);
    assertEquals(loaded.includes(values), false, entry);
    // The rule has something to hold: both count statuses and errors by the plain lists.
    assertEquals(loaded.includes(new URL("results/schema/keys.ts", ROOT).href), true, entry);
  }
});

Deno.test("a load worker and attack load hdr-histogram-js's parts, not its index", async () => {
  // The index also builds the library's WebAssembly histogram and an ICU number format (its log writer's):
  // tens of ms of every process's start.
  for (const entry of ["runner/worker/worker.ts", "cli/attack/command.ts"]) {
    const loaded = await staticImports(ROOT, entry);
    const hdr = loaded.filter((s) => s.includes("hdr-histogram-js"));
    assertEquals(hdr.length > 0 && hdr.every((s) => s.includes("/dist/")), true, `${entry}: ${hdr}`);
  }
});

Deno.test("no import cycle between files", async () => {
  const { graph } = await product();
  const cycles = cycleGroups(graph).map((g) => oneCycle(graph, g));
  assertEquals(cycles, [], cycles.map((c) => `import cycle: ${c}`).join("\n"));
});

Deno.test("the product's one HTTP/2 client is its own: no product file but the target's server imports node:http2", async () => {
  const { graph } = await product();
  const importers = [...graph].filter(([, to]) => to.includes("node:http2")).map(([file]) => file);
  // The built-in target serves gRPC on node:http2: Deno.serve cannot send trailers.
  assertEquals(importers.filter((f) => f !== "targets/app/grpc_endpoints.ts"), []);
});

Deno.test("pure folders touch neither Deno.* nor a node: module with I/O", async () => {
  const { files, graph } = await product();
  const uses: string[] = [];
  for (const file of files) uses.push(...denoUses(file, await Deno.readTextFile(new URL(file, ROOT))));
  assertEquals(uses, []);
  assertEquals(nodeIoImports(graph), []);
});

Deno.test("the graph reader sees every kind of import, as Deno resolves it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-import-graph-" });
  const root = new URL(`file://${dir}/`);
  try {
    const files: Record<string, string> = {
      // A comment with `;` and a quote inside a multi-line import hid it from a pattern reader.
      "main.ts": 'import {\n  a, // the old reader stopped at ; or "\n  type B,\n} from "./lib/a.ts";\n' +
        'import type { C } from "./lib/c.ts";\n' +
        'export const w = new Worker(new URL("./lib/worker.ts", import.meta.url).href, { type: "module" });\n' +
        '// new URL("./lib/not_started.ts", import.meta.url) in a comment starts nothing\n' +
        'export const later = () => import("./lib/d.ts");\nexport type { B, C };\nconsole.log(a);\n' +
        'export const child = import.meta.resolve("./lib/child.ts");\n',
      "lib/a.ts": "export const a = 1;\nexport type B = number;\n",
      "lib/c.ts": "export type C = string;\n",
      "lib/d.ts": 'import { readFileSync } from "node:fs";\nexport const d = readFileSync;\n',
      "lib/worker.ts": 'import { a } from "./a.ts";\nconsole.log(a);\n',
      "lib/not_started.ts": "export const n = 1;\n",
      "lib/child.ts": 'import { d } from "./d.ts";\nconsole.log(d);\n',
    };
    await Deno.mkdir(new URL("lib/", root));
    for (const [path, text] of Object.entries(files)) await Deno.writeTextFile(new URL(path, root), text);
    const entries = await entryPoints(root, await productFiles(root));
    assertEquals(entries, ["lib/child.ts", "lib/worker.ts", "main.ts"]);
    const graph = await importGraph(root, entries);
    assertEquals(graph.get("main.ts"), ["lib/a.ts", "lib/c.ts", "lib/d.ts"]);
    assertEquals(graph.get("lib/worker.ts"), ["lib/a.ts"]);
    assertEquals(graph.get("lib/child.ts"), ["lib/d.ts"]);
    assertEquals(graph.get("lib/d.ts"), ["node:fs"]);
    assertEquals(graph.has("lib/not_started.ts"), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an import Deno cannot resolve fails the graph, naming who imports it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-import-graph-" });
  try {
    await Deno.writeTextFile(`${dir}/main.ts`, 'import { gone } from "./moved.ts";\nconsole.log(gone);\n');
    const error = await importGraph(new URL(`file://${dir}/`), ["main.ts"]).then(() => null, (e) => e);
    assertEquals(String(error).includes("moved.ts (imported by main.ts)"), true, String(error));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("each rule reports a graph made to break it", () => {
  const graph: Graph = new Map([
    ["report/page.ts", ["results/schema/results.ts", "runner/attack.ts"]], // report may not reach the engine
    ["runner/attack.ts", ["targets/start.ts", "ws/frame.ts"]], // runner never imports targets
    ["ws/frame.ts", ["http1/bytes.ts", "http2/frames.ts"]], // ws may use http1 but not http2
    ["targets/app/app.ts", ["targets/proxy/proxy.ts", "targets/spec.ts"]], // parts apart
    ["targets/spec.ts", []],
    ["targets/proxy/proxy.ts", ["targets/app/app.ts"]], // and a cycle with the line above
    ["results/schema/results.ts", ["node:crypto"]], // hashing is no I/O
    ["results/conclude/x.ts", ["node:fs"]],
    ["results/io.ts", ["node:fs"]], // the named exception
    ["http1/bytes.ts", []],
    ["http2/frames.ts", ["http1/bytes.ts"]],
    ["system/sleep.ts", ["system/sleep.ts"]], // a file importing itself
    ["runner/http/h2/session.ts", ["runner/http/h1/parser.ts", "runner/http/tls/conn.ts"]], // h1 is not h2's
    ["runner/http/transport/dial.ts", ["runner/http/ws/client.ts"]], // a shared room serves, never uses
    ["runner/http/protocols.ts", ["runner/http/h2/session.ts", "runner/http/ws/client.ts"]], // the table may
  ]);
  assertEquals(layerViolations(graph), [
    "report/page.ts -> runner/attack.ts",
    "runner/attack.ts -> targets/start.ts",
    "ws/frame.ts -> http2/frames.ts",
  ]);
  assertEquals(targetPartViolations(graph), [
    "targets/app/app.ts -> targets/proxy/proxy.ts",
    "targets/proxy/proxy.ts -> targets/app/app.ts",
  ]);
  assertEquals(roomViolations(graph), [
    "runner/http/h2/session.ts -> runner/http/h1/parser.ts",
    "runner/http/transport/dial.ts -> runner/http/ws/client.ts",
  ]);
  assertEquals(cycleGroups(graph).map((g) => oneCycle(graph, g)), [
    "system/sleep.ts -> system/sleep.ts",
    "targets/app/app.ts -> targets/proxy/proxy.ts -> targets/app/app.ts",
  ]);
  assertEquals(nodeIoImports(graph), [
    "results/conclude/x.ts -> node:fs (results/ works on results data (conclude/ and export/ included))",
  ]);
});

Deno.test("a Deno use counts in code only, and only in pure folders", () => {
  const source = [
    "// Deno.exit() in a comment, /* Deno.env */ too",
    "const a = \"Deno.env\", b = 'Deno', c = /Deno\\.pid/g;",
    "const d = `${Deno.pid} and Deno in the text`;",
    "const e = config.Deno; const f = globalThis.Deno;",
    "const g = 4 / 2 / 1; const h = (x) / Deno.pid;",
  ].join("\n");
  assertEquals(denoUses("http2/frames.ts", source), [
    "http2/frames.ts:3: Deno (http2/ protocol code: bytes in, bytes or counts out)",
    "http2/frames.ts:4: Deno (http2/ protocol code: bytes in, bytes or counts out)",
    "http2/frames.ts:5: Deno (http2/ protocol code: bytes in, bytes or counts out)",
  ]);
  assertEquals(denoUses("results/io.ts", source), []); // the named exception
  assertEquals(denoUses("runner/attack.ts", source), []); // not a pure folder
  assertEquals(denoUses("report/terminal/summary.ts", "export const t = Deno.args;").length, 1);
});

Deno.test("code text blanks comments and literals and keeps offsets", () => {
  const source = 'a /* x */ b // y\nc("s;\\"q") `t${d + `u${e}`}v` f(/r"[/]/)';
  const code = codeText(source);
  assertEquals(code.length, source.length);
  assertEquals(code.replace(/ +/g, " "), 'a b \nc(" ") ` ${d + ` ${e}`} ` f(/ /)');
  assertEquals(codeText(source, { strings: true }).includes('"s;\\"q"'), true);
});
