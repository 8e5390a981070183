import { strict as assert } from "node:assert";
import { flag, flagsOf, helpOf, tokenize } from "./argv.ts";

Deno.test("a flag's usage declares its spellings and value; --help prints the same row", () => {
  const vus = flag("-c, -u, --vus N", { aliases: ["users"], example: "50" }, ["virtual users", "(k6's -u)"]);
  assert.deepEqual(
    { long: vus.long, short: vus.short, aliases: vus.aliases, takesValue: vus.takesValue },
    { long: "vus", short: "c", aliases: ["u", "users"], takesValue: true },
  );
  const debug = flag("--http-debug[=full]", {}, ["each request on stderr"]);
  assert.equal(debug.takesValue || !debug.optionalValue, false);
  const table = ["Load", vus, debug, flag("--no-generator-warmup", {}, ["skip the warm-up"])];
  for (const argv of [["-u", "5"], ["--users=5"], ["-c5"]]) {
    assert.deepEqual(tokenize(argv, flagsOf(table)).values.get("vus"), ["5"], argv.join(" "));
  }
  assert.equal(
    helpOf(table, { flagAt: 2, textAt: 24, shortColumn: true }),
    [
      "Load",
      "  -c, -u, --vus N       virtual users",
      "                        (k6's -u)",
      "      --http-debug[=full]",
      "                        each request on stderr",
      "      --no-generator-warmup",
      "                        skip the warm-up",
    ].join("\n"),
  );
  assert.throws(() => flag("--stage(s) D", {}, []), /not a flag's usage/);
});
