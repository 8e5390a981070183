/**
 * @module
 * A ghz config file (`--ghz-config`, JSON or TOML) read as the ghz flags its keys are.
 */
import { UsageError } from "../usage_error.ts";
import { FileReadError, readTextFileCapped } from "../../system/read_capped.ts";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";

/** A config holds flags and one message's data; a message is capped at 4 MiB by default (--max-send). */
const MAX_CONFIG_BYTES = 16 * 2 ** 20;

/** ghz key -> what it becomes: a flag taking the value as text, or a function of the whole file. */
const SIMPLE: Record<string, string> = {
  call: "--call",
  proto: "--proto",
  protoset: "--protoset",
  total: "-n",
  rps: "-R",
  duration: "-d",
  timeout: "--timeout",
  cacert: "--cacert",
  cert: "--cert",
  key: "--key",
  cname: "--sni",
  format: "-O",
  output: "-o",
  cpus: "--cpus",
};
/** Keys read by the other rules below. */
const OTHER = new Set([
  "host",
  "insecure",
  "skipTLS",
  "concurrency",
  "connections",
  "import-paths",
  "data",
  "metadata",
  // The report's title in ghz: it does not change the run.
  "name",
]);

/** `argv` with `--ghz-config FILE` replaced by the flags its file stands for (placed first). */
export function expandGhzConfig(argv: readonly string[]): string[] {
  const at = argv.findIndex((a) => a === "--ghz-config" || a.startsWith("--ghz-config="));
  if (at < 0) return [...argv];
  const inline = argv[at].startsWith("--ghz-config=");
  const path = inline ? argv[at].slice("--ghz-config=".length) : argv[at + 1];
  if (path === undefined || path === "") {
    throw new UsageError("--ghz-config needs a file, e.g. --ghz-config ghz.json");
  }
  const rest = [...argv.slice(0, at), ...argv.slice(at + (inline ? 1 : 2))];
  if (rest.some((a) => a === "--ghz-config" || a.startsWith("--ghz-config="))) {
    throw new UsageError("--ghz-config is given twice; give one config file, and any change to it as flags");
  }
  return [...ghzFlags(readConfig(path), path), ...rest];
}

function readConfig(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readTextFileCapped(path, MAX_CONFIG_BYTES);
  } catch (err) {
    const why = err instanceof FileReadError ? err.reason : (err as Error).message;
    throw new UsageError(`--ghz-config ${path}: cannot read it (${why}); give a ghz JSON config file`);
  }
  // As ghz, by the file's extension: .toml is TOML, .yaml and .yml YAML, anything else JSON.
  const ext = /\.(toml|ya?ml)$/i.exec(path)?.[1].toLowerCase();
  const kind = ext === "toml" ? "TOML" : ext === undefined ? "JSON" : "YAML";
  try {
    const config = kind === "TOML" ? parseToml(text) : kind === "YAML" ? parseYaml(text) : JSON.parse(text);
    if (config !== null && typeof config === "object" && !Array.isArray(config)) return config;
  } catch (err) {
    const first = (err as Error).message.split("\n")[0];
    throw new UsageError(`--ghz-config ${path}: not ${kind} (${first})`);
  }
  throw new UsageError(`--ghz-config ${path}: expected an object of ghz's options`);
}

/** The loadlab flags a ghz config stands for. */
export function ghzFlags(config: Record<string, unknown>, path: string): string[] {
  const unknown = Object.keys(config).filter((k) => !(k in SIMPLE) && !OTHER.has(k));
  if (unknown.length > 0) {
    throw new UsageError(
      `--ghz-config ${path}: ${unknown.join(", ")} ${
        unknown.length === 1 ? "has" : "have"
      } no loadlab counterpart ` +
        "(docs/GRPC.md lists what is read); remove them or give the run as flags",
    );
  }
  if (typeof config.host !== "string" || config.host === "") {
    throw new UsageError(`--ghz-config ${path}: "host" (HOST:PORT) is missing`);
  }
  const flags = [`${config.insecure === true ? "grpc" : "grpcs"}://${config.host}`];
  for (const [key, flag] of Object.entries(SIMPLE)) {
    if (config[key] !== undefined) flags.push(flag, String(config[key]));
  }
  if (config.skipTLS === true) flags.push("-k");
  flags.push("--connections", String(config.connections ?? 1), "-c", String(config.concurrency ?? 50));
  for (const dir of asList(config["import-paths"])) flags.push("-i", dir);
  if (config.data !== undefined) flags.push("-b", ghzTemplates(JSON.stringify(config.data), path));
  for (const [name, value] of Object.entries(asObject(config.metadata, path))) {
    flags.push("-H", `${name}: ${ghzTemplates(String(value), path)}`);
  }
  return flags;
}

/** ghz's template functions in `text` as loadlab's placeholders; other actions are named and refused. */
function ghzTemplates(text: string, path: string): string {
  return text.replace(/\{\{\s*(.*?)\s*\}\}/g, (action: string, inner: string) => {
    const string = /^randomString\s+(\d+)$/.exec(inner);
    if (string) return `{{ $randomString(${string[1]}) }}`;
    const int = /^randomInt\s+(-?\d+)\s+(-?\d+)$/.exec(inner);
    if (int && Number(int[2]) > Number(int[1])) return `{{ $randomNumber(${int[1]},${Number(int[2]) - 1}) }}`;
    throw new UsageError(
      `--ghz-config ${path}: ghz's template ${action} has no loadlab counterpart (randomString N and ` +
        "randomInt MIN MAX are read); write the value, or use a placeholder (docs/GRPC.md)",
    );
  });
}

function asList(value: unknown): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : String(value).split(",");
}

function asObject(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  throw new UsageError(`--ghz-config ${path}: "metadata" must be an object of names and values`);
}
