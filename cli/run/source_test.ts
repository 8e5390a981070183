/**
 * A script's flags where they do not apply (an experiment file's, another kind of script's): refused,
 * naming each flag of that kind.
 */
import { rejects } from "node:assert/strict";
import { parseRunArgs } from "./args.ts";
import { readRunPlanOrStop } from "./source.ts";

const interrupt = {
  signal: new AbortController().signal,
  exitCode: () => 130,
  beforeQuit() {},
  dispose() {},
};

Deno.test("a session script refuses Locust's and k6's flags, each named in the refusal", async () => {
  const config = Deno.makeTempFileSync({ suffix: ".json" });
  Deno.writeTextFileSync(config, "{}");
  const given: [string, string[]][] = [
    ["Locust's", ["--only-summary"]],
    ["Locust's", ["-L", "INFO"]],
    ["Locust's", ["--html", "r.html"]],
    ["Locust's", ["-E", "slow"]],
    ["Locust's", ["--csv", "out/l"]],
    ["k6's", ["--config", config]],
    ["k6's", ["-q"]],
  ];
  for (const [whose, flags] of given) {
    const args = await parseRunArgs(["examples/scripts/login_browse.ts", ...flags]);
    await rejects(readRunPlanOrStop("run", args, interrupt), (err: Error) => {
      const named = err.message.split(` are ${whose} flags`)[0].split(": ").at(-1)!.split(", ");
      return err.name === "UsageError" && named.includes(flags[0]);
    }, flags.join(" "));
  }
  Deno.removeSync(config);
});

Deno.test("an experiment file refuses a script's load flags, each named in the refusal", async () => {
  for (const flags of [["-i", "5", "--max-duration", "5s"], ["-r", "2", "-c", "4"], ["--headless"]]) {
    const args = await parseRunArgs(["preset:demo", ...flags]);
    const given = flags[0] === "--headless" ? ["Locust's flags"] : flags.filter((f) => f.startsWith("-"));
    await rejects(readRunPlanOrStop("run", args, interrupt), (err: Error) => {
      const named = err.message.split(" are for a script")[0].split(": ").at(-1)!.split(/, | and /);
      return err.name === "UsageError" && given.every((f) => named.includes(f));
    }, flags.join(" "));
  }
});
