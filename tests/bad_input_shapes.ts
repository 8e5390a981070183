/**
 * @module
 * The shapes every bad-input case shares (`Case`, `Ctx`, the base experiment and its editors, used by
 * tests/bad_input_fields.ts) and the special files command cases make in the case folder (a FIFO, a
 * sparse file over a cap, the base experiment on disk). Data only: tests/bad_input_test.ts runs the cases.
 */
import { ok } from "node:assert/strict";

/** Where a case runs: the counter's URL, a folder with a file and a folder in it, a base experiment. */
export interface Ctx {
  url: string;
  dir: string;
  file: string;
  folder: string;
  /** A valid experiment against the counter; cases edit it with `edit()`. */
  base: string;
}

export interface Case {
  name: string;
  /** The command line after `deno run -A main.ts`. */
  args?: (c: Ctx) => string[];
  /** An experiment file: `run FILE --out-dir D` is the command line. */
  yaml?: (c: Ctx) => string;
  /** Extra flags after the experiment file. */
  runFlags?: string[];
  /** What the one line (or each line) must name, in order. */
  names: RegExp[];
  /** Run under `ulimit -n` this low. */
  ulimit?: number;
  /** The exit code when not 2: a k6 script's bad options or init code exit as k6's do (104, 107). */
  code?: number;
}

export const BASE = (url: string) =>
  `name: base
targets:
  t: { url: "${url}" }
loads:
  closed: { model: connections, connections: 2, duration: 200ms }
  burst:
    model: rate
    phases:
      - { duration: 100ms, rate: 10 }
      - { duration: 100ms, rate: 10, rampTo: 20 }
`;

export const edit = (from: string, to: string) => (c: Ctx) => {
  ok(c.base.includes(from), `the base experiment has ${from}`);
  return c.base.replace(from, to);
};
export const add = (text: string) => (c: Ctx) => c.base + text;
export const target = (spec: string) => edit(`t: { url: "`, `t: ${spec}\n  u: { url: "`);

/** A FIFO in the case folder (made once): opening it to read would wait for a writer forever. */
export function fifo(c: Ctx): string {
  const path = `${c.dir}/fifo`;
  if (!exists(path)) new Deno.Command("mkfifo", { args: [path] }).outputSync();
  return path;
}

/** A sparse file of `bytes` (no disk used): over a cap by its size alone. */
export function sparse(c: Ctx, name: string, bytes: number): string {
  const path = `${c.dir}/${name}`;
  using file = Deno.openSync(path, { create: true, write: true });
  file.truncateSync(bytes);
  return path;
}

/** The base experiment written to the case folder, for flags that need a valid file. */
export function experiment(c: Ctx): string {
  const path = `${c.dir}/base.yaml`;
  Deno.writeTextFileSync(path, c.base);
  return path;
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
