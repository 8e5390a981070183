/**
 * `bench --sessions` refuses a protocol it does not run, naming the flag and the fix, before starting nginx.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";

Deno.test("bench --sessions --protocol takes http1 or h2c only (exit 2, the flag and an example)", async () => {
  const engine = new URL("./engine.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", engine, "--sessions", "--protocol", "h3"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 2);
  match(new TextDecoder().decode(out.stderr), /--protocol: http1 or h2c \(found h3\); e\.g\. --protocol h2c/);
});
