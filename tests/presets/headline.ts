/**
 * @module
 * A preset's headline as its quick run states it: the findings line of an expected direction that `run`
 * printed. Stated means "reproduced here" at every point with the test and its margin named; where the
 * quick run cannot show it on this machine the line must say why in words a reader can act on (the
 * reasons a test allows, or other processes' share of a run named), never "within noise" or "not
 * reproduced" while the numbers are overwhelming.
 */
import assert from "node:assert/strict";

/** The findings line of the expectation whose claim starts with `claim` ("Expected: cached's success"). */
export function headlineLine(stdout: string, claim: string): string {
  const line = stdout.split("\n").find((l) => l.includes(claim));
  assert.ok(line, `no findings line "${claim}" in:\n${stdout}`);
  return line;
}

/** The tests a stated headline names: one of the noise rules, with its margin in standard errors. */
const NAMED_TEST =
  /beyond noise by (a two-proportion test|batch means|Welch's t-test over repeats|the \d+ points together \(Stouffer over each point's test\)), ([\d.]+|more than 100) standard errors apart/;

/** A point not reproduced while other processes took more from a run of the better side: always allowed. */
const INCONCLUSIVE = /not judged: inconclusive: other processes took [\d.]+ of the \d+ cores during run /;

/** Asserts the headline was stated, or not judged for one of the `allowed` reasons (or `INCONCLUSIVE`). */
export function assertStated(line: string, allowed: RegExp[] = []): void {
  if ([...allowed, INCONCLUSIVE].some((why) => why.test(line))) {
    assert.match(line, /: not judged: |reproduced at \d+ of \d+ points/, line);
    return;
  }
  // Per point ("reproduced here (high: ...)") or over a sweep's points together ("reproduced here, beyond
  // ...").
  assert.match(line, /: reproduced here[ ,]/, line);
  assert.match(line, NAMED_TEST, line);
}
