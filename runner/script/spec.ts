/**
 * @module
 * The script part of an attack's config: which session script the workers import, what its `setup()`
 * returned, the environment sessions read as `s.env`, and where other origins it names are sent.
 */
import { z } from "zod";
import { modelFactsOf } from "../../results/load_models.ts";
import { issueList, type PathIssue } from "../../validation/mod.ts";

export const scriptSpecSchema = z.strictObject({
  path: z.string().startsWith("/", "a script path is absolute (the plan resolves it)"),
  setupData: z.unknown().optional(),
  /** `s.env`: environment variables handed to sessions (kept out of results). */
  env: z.record(z.string(), z.string()).default({}),
  /** Origins the script names, each sent to another URL instead (a second origin to a local server). */
  routes: z.record(
    z.string().refine(isOrigin, "a key is an origin: scheme, host and port only (https://api.example.com)"),
    z.string().refine(isOrigin, "a route goes to an origin: http://host:port, no path"),
  ).default({}),
  /** Routed origins only dialled there: their requests keep the origin's Host and TLS name (k6's hosts). */
  keepHost: z.array(z.string()).default([]),
  /** The statuses that are no failure (k6's `http.setResponseCallback`), inclusive ranges; else 200-399. */
  expectedStatuses: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
  /** k6's `systemTags`: the system tags its samples carry (none given: k6's default ones). */
  systemTags: z.array(z.string()).optional(),
  /** How long setup() (and the script's loading) may take before the run ends with no load (k6's 60 s). */
  setupTimeoutMs: z.number().positive().default(60_000),
  /** Why a k6 script's setup() failed: its run sends no load, its results keep what setup() sent. */
  setupError: z.string().optional(),
  /** How long teardown() may take after the load before it is cut (its results are kept). */
  teardownTimeoutMs: z.number().positive().default(60_000),
});

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === text;
  } catch {
    return false;
  }
}

interface ScriptExcludes {
  model: string;
  flows?: unknown;
  requestMix: ReadonlyArray<{ method: string; path: string; headers: readonly unknown[]; body?: unknown }>;
  pipelining: number;
}

/** What a script excludes, as issues at their paths. */
export function scriptIssues(c: ScriptExcludes): PathIssue[] {
  const [issues, add] = issueList();
  if (modelFactsOf(c.model)?.noFlows !== undefined) {
    add(["script"], "a script needs a rate, connections or count load: throughput spreads single requests");
  }
  if (c.flows !== undefined) {
    add(["flows"], "a script and flows exclude each other: one source of sessions");
  }
  const [only, ...more] = c.requestMix;
  if (more.length > 0 || only.method !== "GET" || only.path !== "/" || only.headers.length > 0 || only.body) {
    add(["requestMix"], "a script and a request mix exclude each other: send the requests from the script");
  }
  if (c.pipelining > 1) {
    add(["pipelining"], "a script sends one request at a time: pipelining must be 1");
  }
  return issues;
}
