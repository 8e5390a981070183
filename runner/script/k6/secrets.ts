/**
 * @module
 * k6's `k6/secrets` over k6 v1's `--secret-source` lines (`file=PATH`, `mock=K=V,...`), read once per
 * isolate. A value read is redacted from all the script prints from then on (results/redact.ts).
 */
import { isolateFlags } from "./isolate_flags.ts";
import { knowSecrets } from "../../../results/redact.ts";

type Sources = Map<string, Map<string, string>>;

/** The sources of `lines` (`--secret-source`'s), by name and `default`; throws k6's error for a bad line. */
export function secretSources(lines: readonly string[], readText: (path: string) => string): Sources {
  const sources: Sources = new Map();
  for (const line of lines) {
    const eq = line.indexOf("=");
    const [kind, config] = eq < 0 ? [line.trim(), ""] : [line.slice(0, eq), line.slice(eq + 1)];
    // As k6: `default` and `name=N` among the values say which source it is; the rest configure it.
    const all = config.split(",");
    const isDefault = all.includes("default");
    const name = all.find((kv) => kv.startsWith("name="))?.slice(5) || kind;
    const rest = all.filter((kv) => kv !== "default" && !kv.startsWith("name="));
    if (kind !== "mock" && kind !== "file") {
      throw new Error(
        `--secret-source ${line}: no secret source of type "${kind}" here; give file=PATH or mock=K=V`,
      );
    }
    // As k6's file source: `filename=PATH` or a bare PATH (the last given), a file of KEY=VALUE lines.
    const pairs = kind === "mock"
      ? rest
      : readText(rest.at(-1)!.replace(/^filename=/, "")).replace(/\r?\n$/, "").split(/\r?\n/);
    const values = new Map<string, string>();
    for (const kv of pairs) {
      const at = kv.indexOf("=");
      if (at < 0) throw new Error(`--secret-source ${line}: parsing "${kv}", needs =`);
      values.set(kv.slice(0, at), kv.slice(at + 1));
    }
    if (sources.has(name)) throw new Error(`--secret-source ${line}: a second source named "${name}"`);
    if (isDefault && sources.has("default")) throw new Error(`--secret-source ${line}: a second default`);
    sources.set(name, values);
    if (isDefault) sources.set("default", values);
  }
  if (sources.size === 1) sources.set("default", [...sources.values()][0]);
  return sources;
}

let sources: Sources | undefined;

function sourceObject(name: string) {
  return {
    // As k6's: a promise, rejected with k6's words when no source, no such source or no such key.
    get: (key: string): Promise<string> =>
      Promise.resolve().then(() => {
        sources ??= secretSources(isolateFlags.secretSources ?? [], (path) => Deno.readTextFileSync(path));
        if (sources.size === 0) throw new Error("no secret sources are configured");
        const source = sources.get(name);
        if (source === undefined) throw new Error(`no secret source with name "${name}" is configured`);
        const value = source.get(String(key));
        if (value === undefined) throw new Error("no value");
        knowSecrets([[value, "k6 secret"]]);
        return value;
      }),
  };
}

const secrets = { ...sourceObject("default"), source: (name: string) => sourceObject(String(name)) };
export default secrets;
