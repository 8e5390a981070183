/** `loadlab version`, `schema` and `presets`: their usage on -h/--help, exit 2 on any other argument. */
import assert from "node:assert/strict";
import { runVersionCommand } from "./help_cmd.ts";
import { runSchemaCommand } from "./schema_cmd.ts";
import { runPresetsCommand } from "./presets_cmd.ts";

async function printed(
  args: string[],
  command: (args: string[]) => Promise<number> = runVersionCommand,
): Promise<{ code: number; out: string[]; errors: string[] }> {
  const out: string[] = [], errors: string[] = [];
  const { log, error } = console;
  console.log = (line: string) => out.push(line);
  console.error = (line: string) => errors.push(line);
  try {
    return { code: await command(args), out, errors };
  } finally {
    Object.assign(console, { log, error });
  }
}

Deno.test("loadlab version: --help prints its usage (exit 0); another argument is exit 2", async () => {
  const help = await printed(["--help"]);
  assert.deepEqual([help.code, help.out[0]?.split("\n")[0], help.errors], [0, "Usage: loadlab version", []]);
  const plain = await printed([]);
  assert.match(plain.out[0], /^loadlab \S+ \(deno /);
  const other = await printed(["json"]);
  assert.deepEqual([other.code, other.out], [2, []]);
  assert.match(other.errors[0], /takes no arguments \(found json\)/);
});

Deno.test("version, schema and presets read -h and a misspelt flag as every command does", async () => {
  for (const command of [runVersionCommand, runSchemaCommand, runPresetsCommand]) {
    const help = await printed(["-h"], command);
    assert.deepEqual([help.code, help.errors], [0, []]);
    assert.match(help.out[0], /Usage: loadlab /);
    const misspelt = await printed(["--hepl"], command);
    assert.deepEqual([misspelt.code, misspelt.out], [2, []]);
    assert.match(misspelt.errors[0], /--hepl: unknown flag; did you mean --help\?/);
  }
});
