import assert from "node:assert/strict";
import { parseAttackArgs } from "./args.ts";
import { UsageError } from "../usage_error.ts";

const URL_ = "http://127.0.0.1:8080/";

/** The usage error `attack` refuses `args` with under these limits. */
function refusal(args: string[], openFileLimit: number | null, localPorts: number | null): string {
  try {
    parseAttackArgs([URL_, ...args], { openFileLimit, localPorts });
  } catch (err) {
    assert.ok(err instanceof UsageError, String(err));
    return err.message;
  }
  throw new Error(`attack ${args.join(" ")} was not refused`);
}

Deno.test("a ramp over the open-file limit is refused naming its stage, not -c", () => {
  assert.equal(
    refusal(["--stages", "1s:100000"], 20_000, null),
    "--stages: stage 1 (100000 connections): needs 100000 sockets but the open-file limit is 20000 (50 " +
      "kept for the runtime); raise it (ulimit -n 131072) or use at most a stage target of 19950",
  );
  assert.match(refusal(["--stages", "1s:10,5s:30000,1s:30000"], 20_000, null), /^--stages: stage 2 \(30000/);
});

Deno.test("a crowd past the local ports of its source addresses is refused with the fix", () => {
  assert.match(
    refusal(["-c", "60000", "-d", "1s"], null, 28_232),
    /^-c 60000: needs 60000 connections to one address but 1 source address opens 14116 quickly each .*--source-addresses 127\.0\.0\.1-127\.0\.0\.5/,
  );
  assert.match(
    refusal(["--stages", "1s:60000"], null, 28_232),
    /^--stages: stage 1 \(60000 connections\): needs/,
  );
  const spread = ["-c", "42000", "-d", "1s", "--source-addresses", "127.0.0.1-127.0.0.3"];
  assert.deepEqual(
    parseAttackArgs([URL_, ...spread], { openFileLimit: null, localPorts: 28_232 }).config
      .sourceAddresses,
    ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
  );
});

Deno.test("source addresses this host cannot send from, or cannot dial the target with, are refused", () => {
  assert.match(
    refusal(["--source-addresses", "192.0.2.1"], null, null),
    /^--source-addresses: cannot send from 192\.0\.2\.1: .*give addresses of this host/,
  );
  assert.match(
    refusal(["--source-addresses", "::1"], null, null),
    /must all be IPv4, as the target's address is/,
  );
  assert.match(
    refusal(["--source-addresses", "127.0.0.2", "--transport", "deno"], null, null),
    /epoll transport/,
  );
  assert.match(
    refusal(["--source-addresses", "127.0.0.x"], null, null),
    /"127\.0\.0\.x" is not an IP address/,
  );
});

Deno.test("a segment of a load split over machines is held to its share of the crowd", () => {
  const config = parseAttackArgs([URL_, "-c", "100000", "-d", "1s", "--segment", "0/10"], {
    openFileLimit: 20_000,
    localPorts: 28_232,
  }).config;
  assert.equal(config.model === "connections" && config.connections, 100_000);
  assert.equal(
    refusal(["-c", "1000000", "-d", "1s", "--segment", "3/10"], 20_000, null),
    "-c 1000000 (segment 3/10: 100000): needs 100000 sockets but the open-file limit is 20000 (50 kept " +
      "for the runtime); raise it (ulimit -n 131072) or use at most -c 199500",
  );
});
