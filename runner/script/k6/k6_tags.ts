/**
 * @module
 * The tags a k6 request carries: the script's `options.tags`, its scenario's `tags` and, when the script
 * declares scenarios, `scenario: <name>` (as k6 tags every sample), with the request's own `params.tags`
 * over them. `name` is not among them: it names the endpoint. The session records a request under its
 * name and tags (runner/stats/endpoint_recorder.ts), so a threshold by tag (`http_req_duration{kind:html}`,
 * `{scenario:browse}`) selects those requests. The run's tags are one frozen object, reused by every
 * request without tags of its own, so the recorder keys it once per name.
 */

let runTags: Readonly<Record<string, string>> | undefined;
let runScenario = "default";

/** Sets the tags every request of this isolate carries (none: undefined) and the scenario it runs. */
export function setRunTags(tags: Record<string, unknown> | undefined, scenario = "default"): void {
  const entries = Object.entries(tags ?? {}).filter(([k]) => k !== "name").map(([k, v]) => [k, String(v)]);
  runTags = entries.length === 0 ? undefined : Object.freeze(Object.fromEntries(entries));
  runScenario = scenario;
}

/** The tags of a sample k6 writes (`--out json`): the scenario, the run's tags and the root group. */
export function sampleTags(): Record<string, string> {
  return { scenario: runScenario, ...runTags, group: "" };
}

/** A request's tags: the run's with its own `params.tags` over them (its `name` left out), or undefined. */
export function requestTags(
  given: Record<string, string> | undefined,
): Readonly<Record<string, string>> | undefined {
  if (given === undefined) return runTags;
  let own: Record<string, string> | undefined;
  for (const key in given) {
    if (key === "name") continue;
    (own ??= { ...runTags })[key] = String(given[key]);
  }
  return own ?? runTags;
}
