/**
 * @module
 * Bad-input cases of scripts given to `run` (tests/bad_input_test.ts runs them): k6 scripts a hostile or
 * careless author writes (options of the wrong type) and script paths that are not regular files (a FIFO
 * held `run` forever, a sparse file over the cap). Each must exit 2 naming the file:line or field, before
 * any load reaches the counting target. Data only.
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
    name: "run a k6 script whose options count VUs in words",
    args: run(
      k6Script(
        "vus.js",
        (u) =>
          `export const options = { vus: "ten", duration: "1s" };\nexport default function () { http.get("${u}"); }\n`,
      ),
    ),
    names: [/vus\.js: options\.vus: vus must be a whole number/],
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
    name: "an experiment's script that is a FIFO",
    yaml: (c) => `${c.base}script: ${fifoNamed(c, "exp_pipe.js")}\n`,
    names: [/script: .*exp_pipe\.js: is a FIFO, not a regular file/],
  },
];
