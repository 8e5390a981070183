/**
 * @module
 * Bad-input cases of scripts given to `run` (tests/bad_input_test.ts runs them): k6 scripts a hostile or
 * careless author writes (a syntax error, a request at the top level, code from text, a default export
 * that is not a function, nesting too deep for a parser, options of the wrong type, a throw as it loads:
 * named at its line), locustfiles Python or Locust refuses, and script paths that are not regular files (a
 * FIFO held `run` forever, a sparse file over the cap). Each must exit 2 (a k6 script with k6's code, a
 * locustfile with Locust's 1) naming the file:line or field, before any load reaches the counting target.
 * Data only.
 */
import type { Case, Ctx } from "./bad_input_shapes.ts";
import { sparse } from "./bad_input_shapes.ts";

/** A k6 script in the case folder: `body` after an import of k6/http, requests to the counter. */
function k6Script(name: string, body: (url: string) => string) {
  return (c: Ctx): string => {
    const path = `${c.dir}/${name}`;
    Deno.writeTextFileSync(path, `import http from "k6/http";\n${body(c.url)}`);
    return path;
  };
}

/** A FIFO named `name` in the case folder (made once). */
function fifoNamed(c: Ctx, name: string): string {
  const path = `${c.dir}/${name}`;
  try {
    Deno.lstatSync(path);
  } catch {
    new Deno.Command("mkfifo", { args: [path] }).outputSync();
  }
  return path;
}

const run = (script: (c: Ctx) => string) => (c: Ctx) => ["run", script(c), "--out-dir", `${c.dir}/k6-out`];

export const SCRIPTS: Case[] = [
  {
    name: "run a k6 script with a syntax error",
    args: run(k6Script("syntax.js", (u) => `export default function () {\n  http.get("${u}" ;\n}\n`)),
    names: [/syntax\.js:3: syntax error: Unexpected token/],
    code: 107,
  },
  {
    name: "run a k6 script that imports a folder",
    args: run(
      k6Script(
        "folder.js",
        (u) => `import x from "./adir";\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [
      /folder\.js:2: \.\/adir: a folder, not a module: import a file in it \(\.\/adir\/index\.js, say\)/,
    ],
    code: 107,
  },
  {
    name: "run a k6 script that sends a request at its top level",
    args: run(k6Script("init.js", (u) => `const r = http.get("${u}");\nexport default function () {}\n`)),
    code: 107,
    names: [/init\.js:2: a k6 call that sends or waits at the script's top level/],
  },
  {
    name: "run a k6 script that evaluates text",
    args: run(k6Script("eval.js", (u) => `export default function () {\n  eval('http.get("${u}")');\n}\n`)),
    code: 107,
    names: [/eval\.js:3: eval\(\) makes code from text/],
  },
  {
    name: "run a k6 script whose default export is an object",
    args: run(k6Script("object.js", (u) => `export default { url: "${u}" };\n`)),
    code: 255,
    names: [/object\.js: does not load: no exported functions in script/],
  },
  {
    name: "run a k6 script nested past the parser's stack",
    args: run(
      k6Script(
        "deep.js",
        (u) =>
          `export default function () {\n  http.get("${u}", ${"[".repeat(20_000)}${
            "]".repeat(20_000)
          });\n}\n`,
      ),
    ),
    code: 107,
    names: [/deep\.js:3: nested too deep to parse/],
  },
  {
    name: "run a k6 script that sends in a parameter's default value",
    args: run(
      k6Script(
        "param.js",
        (u) =>
          `function get(r = http.get("${u}")) {\n  return r;\n}\nexport default function () { get(); }\n`,
      ),
    ),
    code: 107,
    names: [
      /param\.js:2: a call that sends or waits in a parameter's default value cannot be awaited there: move it/,
    ],
  },
  {
    name: "run a k6 script of 3,000 scenarios (3,000 worker isolates: gigabytes before any load)",
    args: run(
      k6Script(
        "scenarios.js",
        (u) =>
          `export const options = { scenarios: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => ["s" + i, { executor: "shared-iterations", iterations: 1 }])) };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [/scenarios\.js: options\.scenarios: 3000 load workers would run at once, at most 64 in a run/],
    code: 104,
  },
  {
    name: "run a k6 script whose options count VUs in words",
    args: run(
      k6Script(
        "vus.js",
        (u) =>
          `export const options = { vus: "ten", duration: "1s" };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [/vus\.js: options\.vus: vus must be a whole number/],
    code: 104,
  },
  {
    // Problems found once the options are loads and thresholds name the script's options, not those.
    name: "run a k6 script whose second threshold rule and VUs are wrong past their types",
    args: run(
      k6Script(
        "th.js",
        (u) =>
          `export const options = { vus: 0, duration: "1s", thresholds: { http_req_duration: ["p(95)<500", "nonsense<<"] } };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [
      /th\.js: options\.vus: vus must be >= 1 \(found 0\)/,
      /th\.js: options\.thresholds\.http_req_duration\[1\]: threshold "http_req_duration: nonsense<<": not understood/,
    ],
    code: 104,
  },
  {
    name: "run a k6 script whose scenario's stage is wrong past its type",
    args: run(
      k6Script(
        "sc.js",
        (u) =>
          `export const options = { scenarios: { b: { executor: "ramping-vus", startVUs: 0, stages: [{ duration: "1s", target: 1 }, { duration: "1s", target: 2000000 }] } } };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [/sc\.js: options\.scenarios\.b\.stages\[1\]\.target: stage target must be at most 1,000,000/],
    code: 104,
  },
  {
    name: "run a k6 script whose second scenario's duration is 0s",
    args: run(
      k6Script(
        "second.js",
        (u) =>
          `export const options = { scenarios: { a: { executor: "constant-vus", vus: 1, duration: "1s" }, b: { executor: "constant-vus", vus: 1, duration: "0s" } } };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [/second\.js: options\.scenarios\.b\.duration: duration must be > 0/],
    code: 104,
  },
  {
    name: "run a k6 script whose tlsVersion is unknown (two fields of each of two loads)",
    args: run(
      k6Script(
        "tls9.js",
        (u) =>
          `export const options = { tlsVersion: "tls9", scenarios: { a: { executor: "constant-vus", vus: 1, duration: "1s" }, b: { executor: "constant-vus", vus: 1, duration: "1s" } } };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    // Once, at the option.
    names: [
      /tls9\.js: options\.tlsVersion: expected one of "tls1\.0", "tls1\.1", "tls1\.2", "tls1\.3", found "tls9"/,
    ],
    code: 104,
  },
  {
    name: "run a k6 script whose arrival rate is per a timeUnit of 0s",
    args: run(
      k6Script(
        "unit.js",
        (u) =>
          `export const options = { scenarios: { a: { executor: "ramping-arrival-rate", timeUnit: "0s", preAllocatedVUs: 1, stages: [{ duration: "1s", target: 2 }, { duration: "1s", target: 1 }] } } };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [/unit\.js: options\.scenarios\.a\.timeUnit: timeUnit must be more than 0, e.g\. "1s"/],
    code: 104,
  },
  {
    name: "run a k6 script whose scenarios name no function: no exec and no default, an exec not exported",
    args: run(
      k6Script(
        "noexec.js",
        (u) =>
          `export const options = { scenarios: { a: { executor: "shared-iterations" }, b: { executor: "shared-iterations", exec: "nope" } } };\nexport function other() { http.get("${u}"); }\n`,
      ),
    ),
    names: [/noexec\.js:\d+: does not load: options\.scenarios\.a: no exec and no default function/],
    code: 104,
  },
  {
    name: "run a k6 script whose SharedArray function throws as it loads",
    args: run(
      k6Script(
        "shared.js",
        (u) =>
          `import { SharedArray } from "k6/data";\nconst rows = new SharedArray("rows", () => {\n  throw new Error("no rows");\n});\nexport default function () { http.get("${u}" + rows.length); }\n`,
      ),
    ),
    names: [/shared\.js:4: does not load: no rows; its top level must run without throwing/],
    code: 107,
  },
  {
    // Without a static import: k6 is named only by import(), which is found and refused at its line.
    name: "run a k6 script that imports k6/http only by import()",
    args: (c) => {
      const path = `${c.dir}/dynamic.js`;
      Deno.writeTextFileSync(
        path,
        `export const options = { iterations: 1 };\nexport default async function () {\n  const http = await import("k6/http");\n  http.get("${c.url}");\n}\n`,
      );
      return ["run", path, "--out-dir", `${c.dir}/k6-out`];
    },
    code: 107,
    names: [/dynamic\.js:3: a dynamic import\(\) is not converted: use a static import at the top/],
  },
  {
    name: "run a session script that throws at its top level",
    args: (c) => {
      const path = `${c.dir}/top.ts`;
      Deno.writeTextFileSync(
        path,
        `export const options = { loads: { once: { model: "count", requests: 1 } } };\nconst ready = false;\nif (!ready) throw new Error("config missing");\nexport default async (s: { get(p: string): Promise<unknown> }) => {\n  await s.get("/");\n};\n`,
      );
      return ["run", path, "--out-dir", `${c.dir}/ts-out`];
    },
    names: [/top\.ts:3: does not load: config missing; its top level must run/],
  },
  {
    name: "run a session script the module parser refuses (deno check passes it)",
    args: (c) => {
      const path = `${c.dir}/dup.js`;
      Deno.writeTextFileSync(
        path,
        `export const options = { loads: { once: { model: "count", requests: 1 } } };\nfunction a() {}\nexport { a as default };\nexport default async (s) => {\n  await s.get("/");\n};\n`,
      );
      return ["run", path, "--out-dir", `${c.dir}/js-out`];
    },
    // Its place once, from the parser's message (not its file URL after the message).
    names: [/^loadlab run: dup\.js:4: does not load: Duplicate export of 'default'; a module must parse/],
  },
  {
    name: "run a script that is a FIFO",
    args: (c) => ["run", fifoNamed(c, "pipe.js"), "--out-dir", `${c.dir}/k6-out`],
    names: [/pipe\.js: is a FIFO, not a regular file: a script must be a regular/],
  },
  {
    name: "run a script over the cap",
    args: (c) => ["run", sparse(c, "big.js", 65 * 2 ** 20), "--out-dir", `${c.dir}/k6-out`],
    names: [/big\.js: is 65 MiB, over the cap of 64 MiB/],
  },
  {
    name: "run a locustfile saved as UTF-16",
    args: (c) => {
      const path = `${c.dir}/locustfile.py`;
      Deno.writeFileSync(
        path,
        new Uint8Array([0xff, 0xfe, ...[..."import locust\n"].flatMap((ch) => [ch.charCodeAt(0), 0])]),
      );
      return ["run", path, "--out-dir", `${c.dir}/py-out`];
    },
    names: [/locustfile\.py: is not UTF-8 text \(line 1; UTF-16 or Latin-1\?\): use UTF-8$/],
    code: 1, // Locust's for a locustfile it cannot load
  },
  {
    name: "run a locustfile whose indentation mixes tabs and spaces (Python's TabError)",
    args: (c) => {
      const path = `${c.dir}/tabs.py`;
      const task = `    @task\n    def t(self):\n        if 1:\n\t    self.client.get("${c.url}")\n`;
      Deno.writeTextFileSync(path, `from locust import HttpUser, task\nclass U(HttpUser):\n${task}`);
      return ["run", path, "-t", "1s", "--out-dir", `${c.dir}/py-out`];
    },
    names: [/tabs\.py:6: inconsistent use of tabs and spaces in indentation \(Python's TabError\)/],
    code: 1,
  },
  {
    name: "run -f a folder with no locustfile",
    args: (c) => {
      Deno.mkdirSync(`${c.dir}/no-py`, { recursive: true });
      return ["run", "-f", `${c.dir}/no-py`, "-t", "1s", "--out-dir", `${c.dir}/py-out`];
    },
    names: [/no-py: give a locustfile \(\.py\) or a folder of them/],
    code: 1,
  },
  {
    name: "run a k6 script with --summary-export a folder (refused before the load)",
    args: (
      c,
    ) => [
      ...run(k6Script("export.js", (u) => `export default function () { http.get("${u}"); }\n`))(c),
      "--summary-export",
      c.folder,
    ],
    names: [/--summary-export .*adir: cannot write: .*; give a file's path, not a folder's/],
    code: 5,
  },
  {
    name: "an experiment's script that is a FIFO",
    yaml: (c) => `${c.base}script: ${fifoNamed(c, "exp_pipe.js")}\n`,
    names: [/script: .*exp_pipe\.js: is a FIFO, not a regular file/],
  },
];
