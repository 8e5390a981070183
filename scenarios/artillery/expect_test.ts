/**
 * The expect plugin's expectations as loadlab checks, `{{ $env.NAME }}` with `--dotenv`, and a loop over a
 * `loadAll` payload's rows: what each converts to, and every refusal named at the script's path.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parse } from "yaml";
import { importArtillery } from "./convert.ts";

const HEAD = `config:
  target: http://127.0.0.1:8080
  phases: [{ duration: 1, arrivalRate: 1 }]
  variables: { code: 200 }
`;

function convert(text: string, opts: Parameters<typeof importArtillery>[1] = {}) {
  const { experiment, notes, issues } = importArtillery(parse(text), opts);
  const flows = (experiment as { flows?: Array<{ steps: Array<Record<string, unknown>> }> }).flows ?? [];
  return { steps: flows.flatMap((f) => f.steps), notes, issues };
}

Deno.test("expect: each expectation is a check of the step, once config.plugins.expect names the plugin", () => {
  const flow = `scenarios:
  - flow:
      - post:
          url: /items
          capture: { json: $.id, as: id }
          expect:
            - statusCode: "{{ code }}"
            - contentType: json
            - hasProperty: items[0].name
            - notHasProperty: error
            - matchesRegexp: "id.:\\\\d+"
            - equals: ["{{ id }}", "7"]
            - equals: ["{{ code }}", 200]
      - get: { url: /after }
`;
  const on = convert(`${HEAD}  plugins: { expect: { outputFormat: json } }\n${flow}`);
  assertEquals(on.issues, []);
  assertEquals(on.steps[0].expect, [
    { status: 200 },
    { header: "content-type", regexp: "application/(problem\\+|ld\\+)?json" },
    { json: "$.items[0].name", exists: true },
    { json: "$.error", exists: false },
    { regexp: "^(?!\\s*\\{)[\\s\\S]*?(?:id.:\\d+)" },
    { json: "$.id", equals: 7 },
  ]);
  // As the plugin tests a parsed JSON body: `[object Object]`, which `id.:\d+` never matches.
  const rx = new RegExp(String(on.steps[0].expect[4].regexp));
  assertEquals([rx.test('{"id":7}'), rx.test('"id":7')], [false, true]);
  assertEquals(on.steps[1].expect, undefined);
  // Without the plugin Artillery reads no expect: neither does the import, and it says so.
  const off = convert(HEAD + flow);
  assertEquals([off.issues, off.steps[0].expect], [[], undefined]);
  ok(
    off.notes.includes(
      "scenarios[0].flow[0].post.expect: not read without config.plugins.expect, as in Artillery",
    ),
  );
  // expectDefault200: a step without expectations expects 200.
  const all = convert(`${HEAD}  plugins: { expect: { expectDefault200: true } }\n${flow}`);
  assertEquals(all.steps[1].expect, [{ status: 200 }]);
});

Deno.test("expect: what loadlab's checks cannot judge is refused at its path, before any load", () => {
  const { issues } = convert(`${HEAD}  plugins: { expect: { reportFailuresAsErrors: false, colors: 1 } }
scenarios:
  - flow:
      - get:
          url: /a
          expect:
            - hasHeader: X-Id
            - statusCode: [200, abc]
            - equals: ["a", "b"]
            - equals: ["{{ token }}", "x"]
            - matchesRegexp: "{{ token }}"
            - jmespath: "length(items) > \`0\`"
          capture: { header: x-token, as: token }
`);
  assertEquals(issues.map((i) => i.path), [
    "config.plugins.expect.colors",
    "scenarios[0].flow[0].get.expect[0].hasHeader",
    "scenarios[0].flow[0].get.expect[1].statusCode",
    "scenarios[0].flow[0].get.expect[2].equals",
    "scenarios[0].flow[0].get.expect[3].equals",
    "scenarios[0].flow[0].get.expect[4].matchesRegexp",
    "scenarios[0].flow[0].get.expect[5].jmespath",
  ]);
  ok(issues[1].message.includes("Node names headers in lower case"), issues[1].message);
  ok(issues[3].message.includes("compares values no check reads"), issues[3].message);
});

Deno.test("$env and $processEnvironment fill from the environment, --dotenv's file under it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/.env`,
      `# keys\nLL_T_HOST=127.0.0.1:9\nexport LL_T_RATE="4"\nPATH=k # x\n`,
    );
    const { experiment, notes, issues } = importArtillery(
      parse(`config:
  target: "http://{{ $env.LL_T_HOST }}"
  phases: [{ duration: 1, arrivalRate: "{{ $processEnvironment.LL_T_RATE }}" }]
scenarios:
  - flow:
      - get: { url: "/{{ $environment }}", headers: { x-key: "{{ $env.PATH }}", x-no: "{{ $env.LL_T_UNSET }}" } }
`),
      { artillery: { dotenv: `${dir}/.env`, environment: "ci" } },
    );
    assertEquals(issues, []);
    const exp = experiment as Record<string, any>;
    assertEquals(exp.targets.target.url, "http://127.0.0.1:9");
    assertEquals(exp.loads.artillery.phases[0].rate, 4);
    assertEquals(exp.flows[0].steps[0].get.path, "/ci");
    assertEquals(exp.flows[0].steps[0].get.headers, { "x-key": Deno.env.get("PATH"), "x-no": "undefined" });
    ok(notes.some((n) => n.includes("$env.LL_T_UNSET is unset")), notes.join("\n"));
    const missing = importArtillery(parse(`${HEAD}scenarios: [{ flow: [{ get: { url: / } }] }]`), {
      artillery: { dotenv: `${dir}/nope.env` },
    });
    assertEquals(missing.issues.map((i) => i.path), [`--dotenv ${dir}/nope.env`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a loop goes over a loadAll payload's rows, not a config.variables list", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/users.csv`, "username,id\nada,1\nbob,2\n");
    const script = `config:
  target: http://127.0.0.1:8080
  phases: [{ duration: 1, arrivalRate: 1 }]
  variables: { sizes: [s, m] }
  payload:
    - { path: users.csv, fields: [username, id], loadAll: true, name: users, skipHeader: true }
    - { path: users.csv, fields: [who, n] }
scenarios:
  - flow:
      - loop:
          - get: { url: "/users/{{ $loopElement.username }}?id={{ $loopElement.id }}&by={{ who }}" }
        over: users
      - loop: [{ get: { url: "/size/{{ $loopElement }}" } }]
        over: sizes
`;
    // Artillery draws one value of a variable's list per virtual user: its loop runs no round there.
    const { steps, issues } = convert(script, { file: `${dir}/script.yml` });
    assertEquals(issues, []);
    assertEquals(steps.map((s) => (s?.get as { path: string } | undefined)?.path), [
      "/users/ada?id=1&by={{ who }}",
      "/users/bob?id=2&by={{ who }}",
    ]);
    const bad = convert(
      script.replace("name: users, ", "").replace("users.csv, fields: [who", "no.csv, fields: [who"),
      {
        file: `${dir}/script.yml`,
      },
    );
    assertEquals(bad.issues.map((i) => i.path), [
      "config.payload[0].name",
      "scenarios[0].flow[0].loop",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
