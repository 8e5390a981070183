/**
 * Forms found in Artillery scripts teams publish (bench/artillery_verdicts/wild_*), run under `loadlab run`
 * against a server in this process that records each body: a JSON field calling a function Artillery lacks
 * (`$randomInt`) is left out as Artillery leaves it out, elsewhere such a call is refused before any load;
 * a list under `config.ensure` checks nothing; an empty `defaults: headers:` sends none.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";

/** Runs `config` (indented under `config:`) and `flow` (under `- flow:`) for 2 arrivals in 1 s. */
async function run(config: string, flow: string) {
  const bodies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(`${new URL(req.url).pathname} ${await req.text()}`);
    return Response.json({ ok: true });
  });
  let result;
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/script.yml`,
        `config:
  target: http://127.0.0.1:${server.addr.port}
  phases: [{ duration: 1, arrivalCount: 2 }]
${config}
scenarios:
  - flow:
${flow}`,
      );
      const r = await runLoadlab(["run", `${dir}/script.yml`, "--out-dir", `${dir}/out`]);
      result = { ...r, output: r.stdout + r.stderr, bodies: bodies.sort() };
    });
  } finally {
    await server.shutdown();
  }
  return result!;
}

Deno.test("artillery wild: a JSON field calling a function Artillery lacks is left out of the body", async () => {
  const r = await run(
    "",
    `      - post:
          url: /signup
          json: { email: "u{{ $randomInt(1, 9) }}@example.com", password: "p", id: "{{ $randomNumber(1, 1) }}" }
`,
  );
  assertEquals(r.code, 0, r.output);
  assertEquals(r.bodies, ['/signup {"password":"p","id":"1"}', '/signup {"password":"p","id":"1"}']);
  match(r.output, /json\.email: Artillery has no \$randomInt\(\)/);
});

Deno.test("artillery wild: such a call in a url is refused before any load, naming its key", async () => {
  const r = await run("", "      - get: { url: '/items/{{ $randomInt(1, 9) }}' }\n");
  assertEquals(r.code, 2, r.output);
  match(r.output, /flow\[0\]\.get\.url: \{\{ \$randomInt\(\) \}\}: Artillery has no such function/);
  assertEquals(r.bodies, []);
});

Deno.test("artillery wild: a list under config.ensure checks nothing; empty defaults.headers send none", async () => {
  const r = await run(
    "  ensure:\n    - statusCode: 200\n  defaults:\n    headers:",
    "      - get: { url: /q }\n",
  );
  assertEquals(r.code, 0, r.output);
  match(r.output, /config\.ensure: a list: Artillery checks nothing in it/);
  assertEquals(r.bodies, ["/q ", "/q "]);
});

Deno.test("artillery wild: a `$` name Artillery lacks is undefined in a JSON body, as Artillery renders it", async () => {
  const r = await run(
    "",
    '      - post: { url: /register, json: { id: "{{ $timestamp }}", email: "t{{ $timestamp }}@x" } }\n',
  );
  assertEquals(r.code, 0, r.output);
  assertEquals(r.bodies, ['/register {"email":"tundefined@x"}', '/register {"email":"tundefined@x"}']);
  match(r.output, /json\.id: Artillery has no \{\{ \$timestamp \}\}/);
});

Deno.test("artillery wild: `expect` on a scenario checks nothing, as Artillery reads it on a request only", async () => {
  const r = await run("", "      - get: { url: /info }\n    expect:\n      - statusCode: 404\n");
  assertEquals(r.code, 0, r.output);
  assertEquals(r.bodies, ["/info ", "/info "]);
  match(r.output, /scenarios\[0\]\.expect: on a scenario: Artillery checks nothing in it/);
});
