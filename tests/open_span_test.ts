/**
 * An open schedule is measured over the span it planned, not to its last answer: 1/s for 2 s sends at 0
 * and 1 s and reads 1 a second over 2 s (it read 2 a second over 1 s, "above requested"); 4 requests at
 * 8/s span half a second. A schedule planning some but fewer than one send is refused before the load
 * (0.25/s for 2 s sent one at once and read twice the rate asked). Real built-in target; 2.5 s of load.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { withTarget } from "./helpers.ts";

Deno.test("an open schedule's rate is over its planned span; under one planned send is refused", () =>
  withTarget(async (url) => {
    const paced = await runAttack(parseAttackConfig({
      url: `${url}/json`,
      model: "rate",
      phases: [{ durationMs: 2000, ratePerSec: 1 }],
      generatorWarmup: false,
    }));
    assertEquals([paced.requests, paced.durationSec, paced.rps], [2, 2, 1]);
    const counted = await runAttack(parseAttackConfig({
      url: `${url}/json`,
      model: "count",
      requests: 4,
      ratePerSec: 8,
      generatorWarmup: false,
    }));
    // Its last send is at 0.375 s: the span (0.5 s) is the least it is measured over, never less.
    assertEquals(counted.requests, 4);
    ok(counted.durationSec >= 0.5 && counted.rps <= 8, `${counted.durationSec} s, ${counted.rps}/s`);
    throws(
      () => parseAttackConfig({ url, model: "rate", phases: [{ durationMs: 2000, ratePerSec: 0.25 }] }),
      (err: Error) => match(err.message, /phases: plans 0\.5 sends in all, fewer than one/) ?? true,
    );
  }));
