/**
 * @module
 * Where each field of a k6 script's experiment came from, so problems name the script's own option.
 */
import { formatPath, type Issue, nearestOrigin } from "../../validation/mod.ts";
import type { Options, Path } from "./options_shape.ts";

/** The experiment's field paths (formatted) to the options they came from. */
export class K6Paths {
  readonly #origins = new Map<string, { at: string; mirrors: boolean }>();

  /** The experiment field at `field` came from the option at `option` (`inner`: keys below match). */
  add(field: Path, option: Path, inner = false): void {
    this.#origins.set(formatPath(field), { at: formatPath(option), mirrors: inner });
  }

  /** `issues` at the options' paths; the word naming loadlab's field at a message's start too. */
  issues(issues: readonly Issue[]): Issue[] {
    const told = issues.map((issue) => {
      const found = nearestOrigin(this.#origins, issue.path);
      if (found === undefined) return issue;
      const { path: at, exact } = found;
      const field = lastKey(issue.path), option = lastKey(at);
      // The run's name (`app/a+b`) is loadlab's, not the script's: the path names the scenario.
      const text = issue.message.replace(/ \(in run [^()]*\)$/, "");
      // loadlab's field name, leading the message or quoted as a key (`connections: 100`), is the option's.
      const message = exact && field && option && field !== option
        ? (text.startsWith(`${field} `) ? option + text.slice(field.length) : text)
          .replaceAll(`${field}: `, `${option}: `)
        : text;
      return { path: at, message };
    });
    // One option behind several fields (tlsVersion: each load's minVersion and maxVersion) is told once.
    const seen = new Set<string>();
    return told.filter((i) => !seen.has(`${i.path}: ${i.message}`) && seen.add(`${i.path}: ${i.message}`));
  }
}

/** The last key of a formatted path, when it is a plain word. */
const lastKey = (path: string): string | undefined => /([A-Za-z_$][\w$-]*)$/.exec(path)?.[1];

/** The origins of the loads `loads` of `options`: the shortcut load `k6`, or one per scenario. */
export function addLoadPaths(paths: K6Paths, options: Options, loads: Record<string, Options>): void {
  paths.add(["loads"], ["options"]);
  paths.add(["together"], ["options", "scenarios"]);
  // Loads run together are checked as one run named by their names joined.
  const names = Object.keys(loads), scenarios = options.scenarios as Record<string, Options> | undefined;
  if (names.length > 1) paths.add(["loads", names.join("+")], ["options", "scenarios"]);
  for (const [name, load] of Object.entries(loads)) {
    const field = ["loads", name];
    const own = scenarios === undefined ? ["options"] : ["options", "scenarios", name];
    const sc = (scenarios === undefined ? options : scenarios[name]) ?? {};
    paths.add(field, own);
    const at = (key: string) => [...own, key];
    if (scenarios !== undefined) paths.add(["together", name], at("startTime"));
    if (scenarios !== undefined) paths.add([...field, "model"], at("executor"));
    paths.add([...field, "connections"], at("vus"));
    paths.add([...field, "requests"], at("iterations"));
    paths.add([...field, "duration"], at(sc.maxDuration !== undefined ? "maxDuration" : "duration"));
    paths.add([...field, "gracefulStop"], at("gracefulStop"));
    paths.add([...field, "maxConnections"], at(sc.maxVUs !== undefined ? "maxVUs" : "preAllocatedVUs"));
    // loadlab's stages start with an instant one to k6's starting virtual users when there are any.
    const k6Stages = Array.isArray(sc.stages) ? sc.stages.length : 0;
    const first = (Array.isArray(load.stages) ? load.stages.length : 0) - k6Stages;
    if (first > 0) paths.add([...field, "stages", 0], at(scenarios === undefined ? "vus" : "startVUs"));
    for (let k = 0; k < k6Stages; k++) paths.add([...field, "stages", first + k], [...at("stages"), k], true);
    if (sc.executor === "constant-arrival-rate") {
      paths.add([...field, "phases", 0], own);
      paths.add([...field, "phases", 0, "rate"], at("rate"));
      paths.add([...field, "phases", 0, "duration"], at("duration"));
    } else {
      for (let k = 0; k < k6Stages; k++) {
        paths.add([...field, "phases", k], [...at("stages"), k]);
        paths.add([...field, "phases", k, "duration"], [...at("stages"), k, "duration"]);
        paths.add([...field, "phases", k, "rampTo"], [...at("stages"), k, "target"]);
        paths.add(
          [...field, "phases", k, "rate"],
          k === 0 ? at("startRate") : [...at("stages"), k - 1, "target"],
        );
      }
    }
    paths.add([...field, "connection"], ["options", "noConnectionReuse"]);
    paths.add([...field, "tls"], ["options"]);
    paths.add([...field, "tls", "insecure"], ["options", "insecureSkipTLSVerify"]);
    paths.add([...field, "tls", "minVersion"], ["options", "tlsVersion"]);
    paths.add([...field, "tls", "maxVersion"], ["options", "tlsVersion"]);
    paths.add([...field, "tls", "ciphers"], ["options", "tlsCipherSuites"], true);
  }
}
