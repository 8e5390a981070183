/**
 * @module
 * The attack flags' config validated by runner/config.ts, each issue named by the flag that sets it.
 */
import { type AttackConfig, type AttackConfigInput, parseAttackConfig } from "../runner/config.ts";
import { ConfigError } from "../validation/config_error.ts";
import { UsageError } from "./usage_error.ts";
import { WS_CONFIG_PATH_FLAGS } from "./ws_args.ts";

/** Config field (first segment of an issue's path) -> the flag that sets it. */
const CONFIG_PATH_FLAGS: Record<string, string> = {
  url: "url",
  model: "--model",
  connections: "-c",
  maxConnections: "--max-connections",
  preConnect: "--pre-connect",
  durationMs: "-d",
  requests: "-n",
  phases: "--phases",
  stages: "--stages",
  ratePerSec: "-R",
  requestMix: "--mix",
  timeoutMs: "--timeout",
  maxHeaderBytes: "--max-header-bytes",
  pipelining: "-p",
  transport: "--transport",
  sourceAddresses: "--source-addresses",
  protocol: "--protocol",
  streams: "--streams",
  concurrency: "-c",
  h2WindowBytes: "--h2-window",
  "tls.insecure": "--insecure",
  "tls.caFile": "--cacert",
  "tls.certFile": "--cert",
  "tls.keyFile": "--key",
  "tls.sni": "--sni",
  "tls.connectTo": "--connect-to",
  "tls.resume": "--tls-resume",
  workers: "--workers",
  maxMemoryMb: "--max-memory-mb",
  intervalMs: "--interval",
  intervalHistograms: "--interval-histograms",
  warmupMs: "--warmup",
  generatorWarmup: "--no-generator-warmup",
  logFile: "--log",
  segment: "--segment",
  startAtEpochMs: "--start-at",
  ...WS_CONFIG_PATH_FLAGS,
};

/** Runs the shared zod validation; its issues become one line that names flags, not config paths. */
export function toConfig(input: AttackConfigInput): AttackConfig {
  try {
    return parseAttackConfig(input);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const lines = err.issues.map(({ path, message }) => {
      const flag = CONFIG_PATH_FLAGS[path] ?? CONFIG_PATH_FLAGS[/^[^.[]*(\.[^.[]*)?/.exec(path)![0]] ??
        CONFIG_PATH_FLAGS[/^[^.[]*/.exec(path)![0]];
      return `${flag ?? path}: ${message}`;
    });
    throw new UsageError(`${lines.join("; ")}; see loadlab attack --help`, { cause: err });
  }
}
