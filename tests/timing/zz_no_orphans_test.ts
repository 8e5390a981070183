/**
 * @module
 * The suite's last test (tests/suite.ts runs it on its own after every other pass, passed or failed: a
 * failing suite is the likeliest to leave something behind): no process started by loadlab or its tests
 * is still running. `deno task test` marks every pass with `LOADLAB_RUN_ID=suite-...`; every process
 * loadlab starts, and every loadlab the tests start, inherits it (targets/process.ts), so a leftover is
 * found by its environment even after it was re-parented to init. Run by hand without that variable, it
 * cannot tell this suite's processes from others' and is skipped.
 */
import { describeProcesses, waitUntilGone } from "../marked_processes.ts";

const SUITE_ID = Deno.env.get("LOADLAB_RUN_ID");
const ignore = !SUITE_ID?.startsWith("suite-") || Deno.build.os !== "linux";
if (ignore) {
  console.log(
    "skipped: run through `deno task test` (it marks the suite with LOADLAB_RUN_ID=suite-...), on Linux",
  );
}

Deno.test({
  name: "no orphans: no process carrying this suite's LOADLAB_RUN_ID outlives the suite",
  ignore,
  async fn() {
    // A few seconds for stops still under way (SIGTERM grace periods end in SIGKILL after 3 s).
    const left = await waitUntilGone(SUITE_ID!, 5_000);
    if (left.length > 0) {
      throw new Error(`${left.length} process(es) left running by the suite:\n${describeProcesses(left)}`);
    }
  },
});
