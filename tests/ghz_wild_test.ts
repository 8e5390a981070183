/**
 * @module
 * ghz command lines as public repositories run them (bench/ghz_verdicts/wild_*), each class where loadlab
 * read them otherwise than ghz, run against @grpc/grpc-js's greeter.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ghzCommandLine, runGhzCommand } from "../cli/ghz/command.ts";
import { GREETER_PROTO, nodeGreeterSkip, withNodeGreeter } from "./fixtures/node_greeter.ts";

const CALL = ["--insecure", "--proto", GREETER_PROTO, "--call", "helloworld.Greeter.SayHello"];

Deno.test("ghz's calls in flight past 1000 on its connections go over as many more as they need, said so", () => {
  const words = (argv: string[]) => {
    const { attack, moreConnections = "" } = ghzCommandLine([...CALL, ...argv, "127.0.0.1:1"]);
    return [attack[attack.indexOf("--connections") + 1], attack[attack.indexOf("-c") + 1], moreConnections];
  };
  const why = "loadlab keeps at most 1000 calls in flight on one (ghz keeps its";
  assertEquals(words(["-c", "10000", "-n", "10000"]), [
    "10",
    "10000",
    `10 connections, not the 1 asked: ${why} 10000 on 1)`,
  ]);
  assertEquals(words(["-c", "1000", "-n", "1000"]), ["1", "1000", ""]);
  assertEquals(words(["-c", "2500", "-n", "2500", "--connections", "2"]), [
    "3",
    "2500",
    `3 connections, not the 2 asked: ${why} 2500 on 2)`,
  ]);
  assertEquals(words(["-c", "2500", "-n", "2500", "--connections", "5"]), ["5", "2500", ""]);
});

Deno.test({
  name: "--async to a count past 1000 calls runs them all at once, as ghz's workers start each tick's call",
  ignore: nodeGreeterSkip("ghz --async") !== null,
  fn: () =>
    withNodeGreeter(async (port) => {
      const out = await Deno.makeTempFile({ suffix: ".json" });
      try {
        // ssilve1989/connect-grpc-benchmarking's line: no -d, --async, its count cut to 1500.
        const argv = [...CALL, "-n", "1500", "--async", "-O", "json", "-o", out, `127.0.0.1:${port}`];
        assertEquals(await runGhzCommand(argv), 0);
        const report = JSON.parse(await Deno.readTextFile(out));
        assertEquals([report.count, report.statusCodeDistribution], [1500, { OK: 1500 }]);
        assertEquals([report.options.async, report.options.connections], [true, 1]);
      } finally {
        await Deno.remove(out);
      }
    }),
});

Deno.test({
  name: "--duration-stop wait: the report's total and rate run until the last call ends, as ghz's do",
  ignore: nodeGreeterSkip("ghz --duration-stop wait") !== null,
  fn: () =>
    withNodeGreeter(async (port) => {
      const out = await Deno.makeTempFile({ suffix: ".json" });
      try {
        // A ballerina script's line (--duration-stop wait, --concurrency), its calls slowed past -z's end.
        const argv = [...CALL.slice(0, 3), "--call", "helloworld.Greeter.Sleep", "-d", '{"ms": 250}'];
        const stop = [
          "--concurrency",
          "2",
          "-z",
          "300ms",
          "--duration-stop",
          "wait",
          "-O",
          "json",
          "-o",
          out,
        ];
        assertEquals(await runGhzCommand([...argv, ...stop, `127.0.0.1:${port}`]), 0);
        const r = JSON.parse(await Deno.readTextFile(out));
        // The rate over the total, to a float's rounding (the report divides by seconds, not ns).
        const rate = r.count / r.total * 1e9;
        assertEquals([r.statusCodeDistribution, r.total > 300e6, Math.abs(r.rps - rate) < rate * 1e-12], [
          { OK: r.count },
          true,
          true,
        ]);
      } finally {
        await Deno.remove(out);
      }
    }),
});

Deno.test("lines ghz refuses before a call, refused the same: a method after the host, -d @FILE, --metadata k:v", async () => {
  const host = "127.0.0.1:1";
  const lines = [
    ["--insecure", "-n", "10", "-d", "{}", host, "helloworld.Greeter/SayHello"],
    [...CALL, "-d", "@data.json", "-n", "10", host],
    [...CALL, "--metadata", "authorization:Bearer:key", "-n", "10", "-m", "{}", host],
  ];
  for (const argv of lines) assertEquals(await runGhzCommand(argv), 1);
});
