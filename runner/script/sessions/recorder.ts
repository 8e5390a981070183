/**
 * @module
 * A session script's totals in the shape of one flow, so results, the report and the merge treat it as one.
 */
import {
  emptyStepCounters,
  type FlowCounters,
  FlowRecorder,
  type FlowSample,
  flowSample,
} from "../../stats/flow_counters.ts";

/** Most distinct request names; past it they count under `OTHER_NAMES` (a name built from ids). */
const MAX_NAMES = 200;
const OTHER_NAMES = "(other names)";
/** Most distinct check names of one step; past it they count under `OTHER_CHECKS`, still in the totals. */
const MAX_CHECKS = 100;
export const OTHER_CHECKS = "(other checks)";
/** The step checks count under before a session's first request. */
export const SESSION_STEP = "(session)";

/** Why `name` cannot name a script's request or check: one of the reserved rows above, else undefined. */
export function reservedNameProblem(name: string, of: "request" | "check"): string | undefined {
  const trimmed = name.trim();
  const counts = of === "check"
    ? (trimmed === OTHER_CHECKS ? `a request's checks past its cap of ${MAX_CHECKS} names` : undefined)
    : trimmed === SESSION_STEP
    ? "a session's checks made before its first request"
    : trimmed === OTHER_NAMES
    ? `the requests past its cap of ${MAX_NAMES} names`
    : undefined;
  return counts === undefined
    ? undefined
    : `${of} name ${trimmed} is where loadlab counts ${counts}: give the ${of} another name`;
}

type Step = FlowCounters["steps"][number];

/** A script's one flow, its steps added as requests name them (`FlowRecorder`'s flow 0). */
export class ScriptRecorder extends FlowRecorder {
  readonly #steps = new Map<string, number>();

  constructor(name: string) {
    super([{ name, labels: [] }]);
  }

  step(name: string): number {
    const known = this.#steps.get(name);
    if (known !== undefined) return known;
    if (this.#steps.size >= MAX_NAMES && name !== OTHER_NAMES) return this.step(OTHER_NAMES);
    const index = this.flows[0].steps.push(emptyStepCounters(name, [], 4)) - 1;
    this.#steps.set(name, index);
    return index;
  }

  check(step: number, name: string, ok: boolean): void {
    const s = this.flows[0].steps[step], k = this.#slot(s, name);
    if (ok) s.checkPassed[k]++;
    else s.checkFailed[k]++;
  }

  /** Adds `n` to a 64-bit sum kept as check `name`: its passed count the low 32 bits, its failed the high. */
  tally(step: number, name: string, n: number): void {
    const s = this.flows[0].steps[step], k = this.#slot(s, name), sum = s.checkPassed[k] + n;
    s.checkPassed[k] = sum;
    s.checkFailed[k] += Math.floor(sum / 2 ** 32);
  }

  #slot(s: Step, name: string): number {
    let k = s.checkNames.indexOf(name);
    if (k < 0) {
      if (s.checkNames.length >= MAX_CHECKS && name !== OTHER_CHECKS) return this.#slot(s, OTHER_CHECKS);
      k = s.checkNames.push(name) - 1;
      if (k >= s.checkPassed.length) grow(s);
    }
    return k;
  }

  /** The totals as one flow's sample (histograms encoded); once, at the end of the worker's share. */
  override take(): FlowSample[] {
    const f = this.flows[0];
    const steps = f.steps.map((s) => ({
      ...s,
      checkPassed: s.checkPassed.subarray(0, s.checkNames.length),
      checkFailed: s.checkFailed.subarray(0, s.checkNames.length),
    }));
    return [flowSample({ ...f, steps })];
  }
}

function grow(s: Step): void {
  const passed = new Uint32Array(s.checkPassed.length * 2);
  const failed = new Uint32Array(s.checkFailed.length * 2);
  passed.set(s.checkPassed);
  failed.set(s.checkFailed);
  s.checkPassed = passed;
  s.checkFailed = failed;
}
