/**
 * @module
 * A run leaves the process's environment as it found it: what it hands its script's isolates (`-e`
 * variables, k6's flags, Locust's selection) travels in their start, not in variables every run and child
 * of the process would share. `main()` runs here, in this process, twice in a row: each run's script
 * sees its own `-e` and flags (k6's `__ENV`: the system's environment with `-e` over it; with
 * `--include-system-env-vars=false`, `-e` alone), and the second nothing of the first's.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";

const { main } = await import("../main.ts");

/** Each iteration says what it sees of `__ENV` and of the run's options in its request's query. */
const SCRIPT = `import http from "k6/http";
import exec from "k6/execution";
export default function () {
  const seen = [__ENV.GIVEN, __ENV.PATH, exec.test.options.iterations].join(",");
  http.get(__ENV.BASE + "/seen?" + seen);
}
`;

Deno.test("k6 runs with -e and flags in process: the environment unchanged, each run its own values", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(decodeURIComponent(new URL(req.url).search.slice(1)));
    return new Response("ok");
  });
  const dir = await Deno.makeTempDir({ prefix: "loadlab-run-env-" });
  try {
    await Deno.writeTextFile(`${dir}/script.js`, SCRIPT);
    const before = Deno.env.toObject();
    const base = `BASE=http://127.0.0.1:${server.addr.port}`;
    const run = (extra: string[]) =>
      main(["run", `${dir}/script.js`, "--out-dir", `${dir}/out`, "-q", ...extra]);
    assertEquals(await run(["-e", base, "-e", "GIVEN=first", "-i", "2"]), 0);
    assertEquals(Deno.env.toObject(), before);
    assertEquals(await run(["-e", base, "--include-system-env-vars=false", "-i", "1"]), 0);
    assertEquals(Deno.env.toObject(), before);
    const path = Deno.env.get("PATH");
    assertEquals(seen, [`first,${path},2`, `first,${path},2`, ",,1"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
