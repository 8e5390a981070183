/** `loadlab version`: its versions, its usage on --help, and exit 2 on any other argument. */
import assert from "node:assert/strict";
import { runVersionCommand } from "./help_cmd.ts";

async function printed(args: string[]): Promise<{ code: number; out: string[]; errors: string[] }> {
  const out: string[] = [], errors: string[] = [];
  const { log, error } = console;
  console.log = (line: string) => out.push(line);
  console.error = (line: string) => errors.push(line);
  try {
    return { code: await runVersionCommand(args), out, errors };
  } finally {
    Object.assign(console, { log, error });
  }
}

Deno.test("loadlab version: --help prints its usage (exit 0); another argument is exit 2", async () => {
  const help = await printed(["--help"]);
  assert.deepEqual([help.code, help.out[0]?.split("\n")[0], help.errors], [0, "Usage: loadlab version", []]);
  const plain = await printed([]);
  assert.match(plain.out[0], /^loadlab \S+ \(deno /);
  const other = await printed(["--json"]);
  assert.deepEqual([other.code, other.out], [2, []]);
  assert.match(other.errors[0], /takes no arguments \(found --json\)/);
});
