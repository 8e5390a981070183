/**
 * A k6 script's command line refused with k6's exit codes: 104 for a well-formed value out of range (k6's
 * config check), 255 for what k6's flags refuse; another source keeps loadlab's 2. `-u 0` is k6's to run.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseRunArgs } from "./args.ts";
import { withK6Refusals } from "./command.ts";
import { UsageError } from "../usage_error.ts";

/** The exit code `argv`'s refusal carries (undefined: loadlab's 2). */
async function refusalCode(argv: string[]): Promise<number | undefined> {
  try {
    await withK6Refusals(argv, () => parseRunArgs(argv));
  } catch (err) {
    if (err instanceof UsageError) return err.exitCode;
    throw err;
  }
  throw new Error(`${argv.join(" ")} was not refused`);
}

Deno.test("a k6 script's bad command line exits as k6's: 104 out of range, 255 unreadable", async () => {
  const dir = Deno.makeTempDirSync();
  const script = `${dir}/t.js`;
  Deno.writeTextFileSync(script, 'import http from "k6/http";\nexport default function () {}\n');
  try {
    for (const bad of [["-i", "0"], ["--vus=-1"], ["--stage", "1s"], ["--stage", "1s:-1"]]) {
      assertEquals([bad, await refusalCode([script, ...bad])], [bad, 104]);
    }
    // k6 runs `-u 0` (one iteration, with its warning); with a duration its scenario check refuses it.
    assertEquals((await await parseRunArgs([script, "-u", "0"])).scriptLoad?.vus, 0);
    for (
      const bad of [["-e", "1BAD=x"], ["--vus", "abc"], ["-d", "bogus"], ["--nosuchflag"], ["-s", "bad"]]
    ) {
      assertEquals([bad, await refusalCode([script, ...bad])], [bad, 255]);
    }
    assertEquals(await refusalCode(["session.ts", "-u", "0"]), undefined);
    assertEquals(await refusalCode(["session.ts", "-e", "1BAD=x"]), undefined);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
