/**
 * @module
 * The experiment `loadlab run script.js` runs for a k6 script, read from its converted `options`.
 */
import { defined } from "../../validation/defined.ts";
import { basename, resolve } from "node:path";
import { K6ConvertError } from "../../runner/script/k6/convert/convert.ts";
import { NO_MAIN } from "../../runner/script/k6/convert/exports.ts";
import { importsK6Module, sessionScriptPath } from "../../runner/script/k6/convert/converted_file.ts";
import { collectK6Metrics } from "../../runner/script/k6/metrics_channel.ts";
import { thresholdProblem } from "../../runner/script/k6/metrics.ts";
import {
  hasScenarios,
  ignoredShortcuts,
  k6Experiment,
  shortcutScenario,
} from "../../scenarios/k6/options.ts";
import type { K6Paths } from "../../scenarios/k6/paths.ts";
import { K6_OPTIONS } from "../../scenarios/k6/options_shape.ts";
import { formatIssues } from "../../validation/config_error.ts";
import { checkScript, scriptExperimentName } from "../run/script_check.ts";
import { memoryLimitMbBesideRuns } from "../../runner/worker/memory_limit.ts";
import { UsageError } from "../usage_error.ts";
import { isOriginName, type ScriptLoadArgs, withK6Flags } from "../run/script_load_flags.ts";
import { startOutputs } from "./outputs.ts";
import {
  mayRequest,
  namesNoServer,
  scriptOrigins,
  unsetUrlVariables,
} from "../../runner/script/k6/convert/origins.ts";
import { readK6Files } from "../../runner/script/k6/convert/local_modules.ts";
import { terminalSafe } from "../../validation/terminal_text.ts";
import { K6_EXIT } from "../exit_codes.ts";
import { TEST_ABORTED } from "../../runner/script/k6/test_abort.ts";
import { NO_DEFAULT, NO_FUNCTIONS } from "../../runner/script/k6/runtime.ts";
import type { IsolateOptions } from "../../runner/script/k6/isolate_flags.ts";
import { DOES_NOT_LOAD } from "../../runner/script/module.ts";
import { K6_SYSTEM_TAGS, k6Thresholds } from "../../results/thresholds/selector.ts";
import { passInputs, scriptEnv } from "../../runner/script/isolate_inputs.ts";

/** The experiment (JSON text) of k6 script `source`, and where its fields came from in `options`. */
export async function k6ExperimentText(
  source: string,
  targets: Record<string, string>,
  overrides: ScriptLoadArgs = { env: {} },
  maxMemoryMb?: number,
  signal?: AbortSignal,
): Promise<{ text: string; paths: K6Paths }> {
  const path = resolve(source);
  // Before the script's first isolate (its options read): its init code sees the same `__ENV` as its VUs.
  if (overrides.k6?.systemEnv === false) passInputs({ k6: { env: overrides.env } });
  let converted: string;
  try {
    converted = sessionScriptPath(path);
  } catch (err) {
    // k6's init error, as k6's on a syntax error or a module it cannot load (k6 runs what loadlab refuses).
    if (!(err instanceof K6ConvertError)) throw err;
    throw new UsageError(err.message, { cause: err, exitCode: K6_EXIT.scriptException });
  }
  const module = await checkScript(converted, memoryLimitMbBesideRuns(maxMemoryMb), signal).catch((err) => {
    if (!(err instanceof UsageError)) throw err;
    // As k6: its abort in init code 108, no exported function 255, nothing to run (no default, no scenario's
    // exec) an invalid config (104), a throw of its own 107; what loadlab refuses of one that loads is 2.
    const exitCode = err.message.includes(TEST_ABORTED)
      ? K6_EXIT.scriptAborted
      : err.message.includes(NO_FUNCTIONS)
      ? K6_EXIT.commandFailed
      : err.message.includes(NO_DEFAULT) || err.message.includes("load: options.scenarios.")
      ? K6_EXIT.invalidConfig
      : err.message.includes(DOES_NOT_LOAD)
      ? K6_EXIT.scriptException
      : undefined;
    throw new UsageError(err.message, { cause: err, ...defined({ exitCode }) });
  });
  refuseUnreadK6Env();
  const options = withK6Flags(module.options ?? {}, overrides.k6, overridesOf(overrides));
  for (const warning of ignoredShortcuts(options)) console.error(warning);
  // k6's httpDebug option, under its flag: "full" shows bodies too, any other text the heads.
  const debug = overrides.k6?.httpDebug === undefined && options.httpDebug;
  if (typeof debug === "string" && debug !== "") {
    passInputs({ k6: { httpDebug: debug === "full" ? "full" : "headers" } });
  }
  // As k6's: a load the flags give replaces the scenarios, whose VUs then run the default function.
  const flagsLoad = options.scenarios === undefined && !!module.options?.scenarios;
  // Whose function is the default: k6 refuses that config for a script of scenario functions only.
  if (flagsLoad && Deno.readTextFileSync(converted).includes(NO_MAIN)) {
    const why = "executor default: function 'default' not found in exports";
    throw new UsageError(`${basename(path)}: ${why}`, { exitCode: K6_EXIT.invalidConfig });
  }
  const scenarios = hasScenarios(options) ? options.scenarios : { default: shortcutScenario(options) };
  const applied = { ...options, scenarios };
  passInputs({ k6: { flagsLoad, options: applied as IsolateOptions, testStartMs: Date.now() } });
  const mapped = k6Experiment(options, module.metrics, importsK6Module(path, "k6/net/grpc"));
  if (!mapped.ok) {
    throw new UsageError(`${basename(path)}: ${formatIssues(mapped.issues).join("; ")}`, {
      exitCode: K6_EXIT.invalidConfig,
    });
  }
  const { loads, together, thresholds, afterRun, paths, hooksTimeouts, ignored } = mapped.value;
  // k6's `systemTags` (its option, `--system-tags`, K6_SYSTEM_TAGS): a name none of k6's changes nothing.
  const systemTags = options.systemTags as string[] | undefined;
  const unknown = (systemTags ?? []).filter((t) => !K6_SYSTEM_TAGS.includes(t));
  // The system resolves each host: k6's dns changes nothing, and its blacklist sees no resolved name.
  const warnings = [
    ignored.length > 0 &&
    `options.${ignored.join(", options.")}: none of k6's options (ignored, as k6 ignores them)`,
    options.dns && "options.dns: not honoured (the system resolves each connection's host)",
    options.blacklistIPs && "options.blacklistIPs: checked on URLs' IPs and options.hosts' only",
    unknown.length > 0 && `systemTags (--system-tags): ${unknown.join(", ")} is none of k6's system tags ` +
      `(ignored, as k6 ignores it): name some of ${K6_SYSTEM_TAGS.join(", ")}`,
  ];
  for (const warning of warnings) if (typeof warning === "string") console.error(warning);
  await startOutputs(overrides.k6?.outs ?? [], systemTags);
  // As k6: a threshold on an unknown metric, or by an aggregation its kind lacks (a trend's count), is 104.
  const refused = k6Thresholds(options.thresholds).flatMap(({ key, metric, rules }) =>
    rules.flatMap((t) => {
      const why = thresholdProblem(metric ?? key, String(t.threshold), module.metrics);
      return why === null ? [] : [`options.thresholds.${key}: ${why}`];
    })
  );
  if (refused.length > 0) {
    throw new UsageError(`${basename(path)}: ${refused.join("; ")}`, { exitCode: K6_EXIT.invalidConfig });
  }
  // Before any worker starts: their custom metrics reach this isolate, which judges abortOnFail thresholds.
  collectK6Metrics(
    afterRun.flatMap(({ metric, rule, abortOnFail }) =>
      abortOnFail ? [{ metric, rule, delayMs: abortOnFail.delayMs }] : []
    ),
  );
  const hosts = (options.hosts ?? {}) as Record<string, string>;
  const { url, routes, keepHost } = whereRequestsGo(path, targets, hosts);
  // The target k6's hosts name is dialled at its address; its requests keep its Host and TLS name.
  const origin = new URL(url).origin;
  const to = keepHost.includes(origin) ? new URL(routes[origin]) : undefined;
  const connectTo = to && `${to.hostname}:${to.port || defaultPort(to)}`;
  // `--local-ips`: each load's connections bound to the addresses in turn.
  const sourceAddresses = overrides.k6?.localIPs;
  // A gRPC script's calls go on HTTP/2 streams: h2 on https:, else h2c (a load's own protocol kept).
  const h2 = importsK6Module(path, "k6/net/grpc") && { protocol: url.startsWith("https:") ? "h2" : "h2c" };
  // k6's gracefulStop, 30 s unless a scenario gives its own, for iterations in flight at a load's end.
  const dialled = Object.fromEntries(
    Object.entries(loads).map(([name, load]) => [name, {
      ...h2,
      gracefulStop: "30s",
      ...load,
      ...defined({ sourceAddresses }),
      ...(connectTo === undefined ? {} : { tls: { ...load.tls ?? {}, connectTo } }),
    }]),
  );
  const text = JSON.stringify({
    name: scriptExperimentName(path),
    targets: { app: { url } },
    loads: dialled,
    ...(together ? { together } : {}),
    ...(thresholds.length > 0 ? { thresholds } : {}),
    ...hooksTimeouts,
    script: { file: path, routes, keepHost, expectedStatuses: module.expectedStatuses, systemTags },
  });
  return { text, paths };
}

/** k6's options it reads from `K6_*` variables that loadlab does not (each would change a run unseen). */
function refuseUnreadK6Env(): void {
  // k6 v1 reads no K6_HOSTS (its hosts option has no text form): the run goes on without it, as k6's.
  if (Deno.env.get("K6_HOSTS")?.trim()) {
    console.error(
      "K6_HOSTS: k6 does not read it (ignored, as k6 ignores it): give options.hosts or --config",
    );
  }
  const unread = Object.values(K6_OPTIONS).filter((o) => o.envRefused && Deno.env.get(`K6_${o.env}`)?.trim());
  if (unread.length === 0) return;
  throw new UsageError(unread.map((o) => `K6_${o.env}: ${o.envRefused}`).join("; "), {
    exitCode: K6_EXIT.invalidConfig,
  });
}

/** The load the flags and `K6_*` variables give, as k6's options (their tier: `withK6Flags`). */
function overridesOf(a: ScriptLoadArgs): Record<string, unknown> {
  return defined({
    vus: a.vus,
    duration: a.durationMs === undefined ? undefined : `${a.durationMs}ms`,
    iterations: a.iterations,
    stages: a.stages?.map((s) => ({ duration: `${s.durationMs}ms`, target: s.target })),
  });
}

/** The target and other origins of the script's URLs; a host `options.hosts` names goes to its address. */
function whereRequestsGo(path: string, targets: Record<string, string>, hosts: Record<string, string>) {
  const env = scriptEnv(), seen = new Set<string>();
  const files = readK6Files(path);
  // The script's own first, then its local modules'.
  const origins = [...files].reverse().flatMap((f) => scriptOrigins(f.ast, env))
    .filter((o) => !seen.has(o.origin) && seen.add(o.origin));
  const routes: Record<string, string> = {};
  const said: string[] = [], keepHost: string[] = [];
  for (const [name, url] of Object.entries(targets)) {
    if (!isOriginName(name)) continue;
    routes[new URL(name).origin] = new URL(url).origin;
    said.push(`requests to ${new URL(name).origin} go to ${url} (--target ${name}=URL)`);
  }
  // As k6's dialer: `host:port` (the scheme's port when the URL has none) first, then the host alone.
  const named = Object.entries(hosts).map(([name, to]) => [name.toLowerCase(), to]);
  const matches = (name: string, at: string) =>
    name === at || (name[0] === "*" && at.endsWith(name.slice(1)));
  for (const { origin } of origins) {
    const url = new URL(origin);
    const to = [`${url.hostname}:${url.port || defaultPort(url)}`, url.hostname]
      .map((at) => named.find(([name]) => matches(name, at))?.[1]).find((to) => to !== undefined);
    if (to === undefined || routes[origin] !== undefined) continue;
    const address = new URL(`${url.protocol}//${to}`);
    routes[origin] =
      new URL(`${url.protocol}//${address.hostname}:${address.port || url.port || defaultPort(url)}`)
        .origin;
    keepHost.push(origin);
    said.push(`requests to ${origin} go to ${routes[origin]} (options.hosts)`);
  }
  const given = targets.app;
  // Else the first origin sent nowhere else, or where the first one sent elsewhere goes.
  const url = given ?? origins.find((o) => routes[o.origin] === undefined)?.origin ?? keepHost[0] ??
    Object.values(routes)[0];
  // As k6's, a script needs no URL before the load: each origin its requests compute is counted as its own.
  if (url === undefined) {
    const unset = [...new Set(files.flatMap((f) => unsetUrlVariables(f.ast, env)))];
    const name = basename(path), sets = unset.map((n) => `-e ${n}=URL`).join(" ");
    console.error(terminalSafe(
      files.every((f) => !mayRequest(f.ast) || namesNoServer(f.ast, env))
        ? `${name}: sends no request (it imports no k6/http, k6/ws or k6/net/grpc, or its URLs name no ` +
          "server): its iterations run with no server"
        : unset.length === 0
        ? `${name}: names no URL before the load: its requests go where it computes them`
        : `${name}: builds its URLs from ${unset.map((n) => `__ENV.${n}`).join(", ")}, unset (k6's ` +
          `requests then fail): set ${unset.length > 1 ? "them" : "it"} with ${sets}`,
    ));
    return { url: NO_SERVER, routes, keepHost };
  }
  const target = new URL(url).origin;
  // An origin the environment gives is where the user sends; only one the text spells may be sent.
  const spelled = origins.filter((o) => o.literal && o.origin !== target && routes[o.origin] === undefined);
  if (given !== undefined && spelled.length === 1) {
    routes[spelled[0].origin] = target;
    said.push(`requests to ${spelled[0].origin} go to ${given} (--target app)`);
  }
  for (const line of said) console.error(terminalSafe(`${basename(path)}: ${line}`));
  return { url, routes, keepHost };
}

const defaultPort = (url: URL) => url.protocol === "https:" || url.protocol === "wss:" ? "443" : "80";

/** The run's target of a script that names no URL: nothing connects to it (9 is the discard port). */
const NO_SERVER = "http://127.0.0.1:9";
