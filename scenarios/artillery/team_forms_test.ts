/**
 * Forms teams write that Artillery 2 runs: a `log` step, a capture's `transform` and `strict: true`,
 * `http.defaults`, `includeFiles`, a flow a false `ifTrue` empties, a capture's fields, a `formData` file,
 * `--solo`, `--scenario-name`, `--config`, a drawn `variables` list and a fractional rate: what each
 * converts to.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parse } from "yaml";
import { importArtillery } from "./convert.ts";

const HEAD = `config:
  target: http://127.0.0.1:8080
  phases: [{ duration: 1, arrivalRate: 1 }]
`;

function convert(text: string, opts: Parameters<typeof importArtillery>[1] = {}) {
  const { experiment, notes, issues } = importArtillery(parse(text), opts);
  const e = experiment as Record<string, any>;
  return { e, steps: (e.flows ?? []).flatMap((f: any) => f.steps), notes, issues };
}

Deno.test("log, transform, http.defaults and includeFiles run as Artillery runs them", () => {
  const { steps, notes, issues } = convert(`${HEAD}  includeFiles: [./a.txt]
  http: { defaults: { headers: { x-client: t } }, extendedMetrics: true, maxSockets: 2 }
  defaults: { headers: { x-old: o } }
scenarios:
  - flow:
      - log: "hello {{ $uuid }}"
      - post:
          url: /login
          capture: [{ json: $.token, as: token, strict: true, transform: "this.token.toUpperCase()" }]
      - get: { url: "/me", headers: { authorization: "{{ token }}" } }
`);
  assertEquals(issues, []);
  assertEquals(steps.map((s: any) => Object.keys(s)[0]), ["post", "get"]);
  assertEquals(steps[0].capture, [{ json: "$.token", as: "token" }]);
  // http.defaults.headers replace defaults.headers whole, as there.
  assertEquals(steps[0].post.headers, { "x-client": "t" });
  for (const n of ["flow[0].log: Artillery prints it", "transform: not applied", "extendedMetrics"]) {
    ok(notes.some((t) => t.includes(n)), n);
  }
});

Deno.test("a flow a false ifTrue empties keeps one request, never sent; capture fields are captured", () => {
  const empty = convert(`${HEAD}  variables: { feature: off }
scenarios:
  - flow: [{ get: { url: /beta, ifTrue: 'feature == "on"' } }]
  - flow: [{ get: { url: /a } }, { get: { url: /b, ifTrue: 'feature == "on"' } }]
`);
  assertEquals(empty.issues, []);
  assertEquals(empty.e.flows.map((f: any) => f.steps.map((s: any) => [s.get.path, s.ifTrue])), [
    [["/beta", "0"]],
    [["/a", undefined]],
  ]);
  const fields = convert(`${HEAD}scenarios:
  - flow:
      - post: { url: /items, capture: { json: "$", as: item } }
      - get: { url: "/items/{{ item.id }}/{{ item.tags[0] }}" }
`);
  assertEquals(fields.issues, []);
  assertEquals(fields.steps[0].capture, [
    { json: "$", as: "item" },
    { json: "$.id", as: "item.id" },
    { json: "$.tags[0]", as: "item.tags.0" },
  ]);
  assertEquals(fields.steps[1].get.path, "/items/{{ item.id }}/{{ item.tags.0 }}");
});

Deno.test("a formData file part is sent as form-data lays it out; a binary one runs as a session script", () => {
  const dir = Deno.makeTempDirSync();
  Deno.writeTextFileSync(`${dir}/a.txt`, "bytes\n");
  Deno.writeFileSync(`${dir}/b.bin`, new Uint8Array([0xff, 0xfe]));
  const form = (file: string) =>
    convert(
      `${HEAD}scenarios:\n  - flow: [{ post: { url: /u, formData: { t: x, f: { fromFile: ${file} } } } }]`,
      {
        file: `${dir}/s.yml`,
      },
    );
  const { steps, issues } = form("./a.txt");
  assertEquals(issues, []);
  const b = "--loadlab-artillery-form-data";
  assertEquals(
    steps[0].post.body,
    `${b}\r\ncontent-disposition: form-data; name="t"\r\n\r\nx\r\n` +
      `${b}\r\ncontent-disposition: form-data; name="f"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\n` +
      `bytes\n\r\n${b}--\r\n`,
  );
  const binary = form("./b.bin");
  assertEquals([binary.issues, typeof binary.e.script], [[], "string"]);
});

Deno.test("--solo, --scenario-name and --config change the script as artillery run's do", () => {
  const text =
    `${HEAD}scenarios:\n  - { name: a, flow: [{ get: { url: /a } }] }\n  - { name: b, flow: [{ get: { url: /b } }] }\n`;
  const { e } = convert(text, { artillery: { solo: true, "scenario-name": "b" } });
  assertEquals(e.loads.artillery.phases.map((p: any) => [p.duration, p.rate]), [["1s", 1]]);
  assertEquals(e.flows.map((f: any) => f.name), ["b"]);
  ok(convert(text, { artillery: { "scenario-name": "c" } }).issues[0].message.includes("names 0 scenarios"));
  const config = JSON.stringify({ config: { target: "http://127.0.0.1:9", http: { timeout: 3 } } });
  const merged = convert(text, { artillery: { config } }).e;
  assertEquals([merged.targets.target.url, merged.loads.artillery.timeout], ["http://127.0.0.1:9", "3s"]);
});

Deno.test("a drawn variables list runs the scenarios as a session script; a lone fractional rate is refused", () => {
  const drawn = convert(`${HEAD}  variables: { color: [red, blue] }
scenarios:
  - flow: [{ get: { url: "/shirts/{{ color }}" } }, { get: { url: /red, ifTrue: 'color == "red"' } }]
`);
  assertEquals([drawn.issues, typeof drawn.e.script, drawn.e.flows], [[], "string", undefined]);
  const rate = convert(`config:
  target: http://127.0.0.1:8080
  phases: [{ duration: 2, arrivalRate: 1.5 }, { duration: 2, arrivalRate: 0.5, rampTo: 2.5 }]
scenarios: [{ flow: [{ get: { url: / } }] }]
`);
  assertEquals(rate.issues.map((i) => i.path), ["config.phases[0].arrivalRate"]);
});

Deno.test("a loop over a drawn variable runs no round, as Artillery's over a value that is no list", () => {
  const { e, issues, notes } = convert(`${HEAD}  variables: { tags: [a, b] }
scenarios: [{ flow: [{ loop: [{ get: { url: "/t/{{ $loopElement }}" } }], over: tags }] }]
`);
  assertEquals(issues, []);
  assertEquals(e.flows[0].steps.map((s: any) => [s.get.path, s.ifTrue]), [["/t/", "0"]]);
  ok(notes.some((n) => n.includes("no round runs")), notes.join("\n"));
});
