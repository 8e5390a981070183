/**
 * End to end: what `loadlab run` and `attack` print on the terminal holds no secret the files do not, on
 * the paths results.json's redaction never sees: a flow step's `Checks:` lines (its label is `METHOD path`,
 * and the path may carry `?token=`), the message of a target that exited before it was ready (it echoes
 * the command line and the tail of the app's output, which may print its own `env:` secret), and the
 * exit-2 line of a `--set` that cannot be applied (it quotes the assignment), of a refused `-H` (it
 * quotes the header) and of a file that is not JSON (V8's parser quotes the text around the fault). Real
 * runs: the built-in target, an external `sh` that exits at once.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Cases at once: their `loadlab` calls run one at a time, in this process. */
const pool = testPool(3);

function leaked(text: string, secrets: string[]): string[] {
  return secrets.filter((s) => text.includes(s));
}

/** Writes `yaml` as `dir/e.yaml` and runs it into `dir/out`, with `extra` arguments. */
async function runExperiment(dir: string, yaml: string, extra: string[] = []) {
  await Deno.writeTextFile(`${dir}/e.yaml`, yaml);
  return await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`, ...extra]);
}

pool.test("run: a flow step's secret query value is redacted in the terminal's Checks lines", async () => {
  await withTempDir(async (dir) => {
    const { code, stdout, stderr } = await runExperiment(
      dir,
      `name: checked
targets:
  plain: { kind: builtin }
flows:
  - name: f
    steps:
      - get: /json?token=STEPTOKEN12345
        expect: [{ status: 201 }]
loads:
  short: { model: count, requests: 20, connections: 1 }
`,
    );
    assertEquals(code, 0, stderr);
    assertMatch(stdout, /Checks:/);
    assertMatch(stdout, /GET \/json\?token=\[redacted 14 chars sha256:[0-9a-f]{8}\]: status 201/);
    assertEquals(leaked(stdout + stderr, ["STEPTOKEN12345"]), [], stdout + stderr);
    const results = await Deno.readTextFile(`${dir}/out/results.json`);
    assertEquals(leaked(results, ["STEPTOKEN12345"]), []);
  });
});

pool.test("run: a target that fails to start has its env and argument secrets redacted on the terminal", async () => {
  await withTempDir(async (dir) => {
    const { code, stdout, stderr } = await runExperiment(
      dir,
      `name: dies
targets:
  ext:
    kind: external
    command: sh
    args: [-c, 'echo "token is $API_TOKEN" >&2; exit 3', sh, --api-key, ARGKEY4444]
    env: { API_TOKEN: ENVSECRET6666 }
    url: http://127.0.0.1:9
loads:
  short: { model: count, requests: 1, connections: 1 }
`,
    );
    assertEquals(code, 3, stderr);
    assertMatch(stderr, /token is \[redacted 13 chars sha256:[0-9a-f]{8}\]/);
    assertMatch(stderr, /--api-key \[redacted 10 chars sha256:[0-9a-f]{8}\]/);
    assertEquals(leaked(stdout + stderr, ["ENVSECRET6666", "ARGKEY4444"]), [], stdout + stderr);
  });
});

pool.test("run: a --set of a secret field that cannot be applied does not echo its value", async () => {
  await withTempDir(async (dir) => {
    const { code, stderr } = await runExperiment(
      dir,
      `name: set
targets:
  plain: { kind: builtin }
loads:
  short: { model: count, requests: 1, connections: 1 }
`,
      [
        "--set",
        "loads.short.connections.authorization=Bearer SETSECRET2222",
        "--set",
        "loads.short.connections.x=3",
      ],
    );
    assertEquals(code, 2, stderr);
    assertMatch(
      stderr,
      /--set loads\.short\.connections\.authorization=\[redacted 20 chars sha256:[0-9a-f]{8}\]/,
    );
    // Not secret: a load's field keeps its value.
    assertMatch(stderr, /--set loads\.short\.connections\.x=3/);
    assertEquals(leaked(stderr, ["SETSECRET2222"]), [], stderr);
  });
});

pool.test("attack: an -H with a secret name that is refused does not echo its value", async () => {
  for (
    const [header, shown] of [
      [
        "Authorization: Bearer HSECRET1111\r\nX-Smuggled: 1",
        /-H "Authorization: \[redacted 33 chars sha256:[0-9a-f]{8}\]"/,
      ],
      ["X-Api-Key HSECRET2222", /-H "X-Api-Key \[redacted 11 chars sha256:[0-9a-f]{8}\]": not a header/],
    ] as const
  ) {
    const { code, stderr } = await loadlabInProcess([
      "attack",
      "http://127.0.0.1:9/",
      "-n",
      "1",
      "-H",
      header,
    ]);
    assertEquals(code, 2, stderr);
    assertMatch(stderr, shown);
    assertEquals(leaked(stderr, ["HSECRET1111", "HSECRET2222"]), [], stderr);
  }
  // A header whose name is not secret is quoted as it is.
  const { stderr } = await loadlabInProcess([
    "attack",
    "http://127.0.0.1:9/",
    "-n",
    "1",
    "-H",
    "Accept json",
  ]);
  assertMatch(stderr, /-H "Accept json": not a header/);
});

pool.test("a file that is not JSON: its exit-2 line gives the reason, not the text around the fault", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/r.json`, '{"token": JSONSEC1111}');
    await Deno.writeTextFile(`${dir}/d.json`, '[{"user": "a", "key": JSONSEC2222}]');
    await Deno.writeTextFile(
      `${dir}/d.ndjson`,
      '{"user": "a", "key": "x"}\n{"user": "b", "key": JSONSEC3333}\n',
    );
    const experiment = (file: string) =>
      `name: data
targets:
  plain: { kind: builtin }
data:
  users: { file: ${file} }
loads:
  short: { model: count, requests: 1, connections: 1, data: users }
`;
    await Deno.writeTextFile(`${dir}/a.yaml`, experiment("d.json"));
    await Deno.writeTextFile(`${dir}/b.yaml`, experiment("d.ndjson"));
    const secrets = ["JSONSEC1111", "JSONSEC2222", "JSONSEC3333"];
    for (
      const [args, reason] of [
        [
          ["report", `${dir}/r.json`, "-o", `${dir}/r.html`],
          /r\.json: not JSON \(Unexpected token 'J'\): give a results\.json written by loadlab/m,
        ],
        [["run", `${dir}/a.yaml`, "--out-dir", `${dir}/out`], /d\.json: is not JSON: Unexpected token 'J'$/m],
        [
          ["run", `${dir}/b.yaml`, "--out-dir", `${dir}/out`],
          /d\.ndjson:2: is not JSON: Unexpected token 'J'$/m,
        ],
      ] as const
    ) {
      const { code, stderr } = await loadlabInProcess([...args]);
      assertEquals(code, 2, stderr);
      assertMatch(stderr, reason);
      assertEquals(leaked(stderr, secrets), [], stderr);
    }
  });
});

pool.test("run: a check that a secret-named JSON field equals a value shows the value as its token", async () => {
  await withTempDir(async (dir) => {
    const { code, stdout, stderr } = await runExperiment(
      dir,
      `name: eq
targets:
  plain: { kind: builtin }
flows:
  - name: f
    steps:
      - post: { path: /login, json: { user: ada } }
        expect: [{ json: $.token, equals: EQSECRET1234 }, { json: $.user, equals: ada }]
loads:
  short: { model: count, requests: 4, connections: 1 }
`,
    );
    assertEquals(code, 0, stderr);
    assertMatch(stdout, /\$\.token == "\[redacted 12 chars sha256:[0-9a-f]{8}\]"/);
    assertMatch(stdout, /\$\.user == "ada"/);
    for (const text of [stdout + stderr, await Deno.readTextFile(`${dir}/out/results.json`)]) {
      assertEquals(leaked(text, ["EQSECRET1234"]), []);
    }
  });
});
