/**
 * @module
 * Endpoint names of an imported Artillery script, as Artillery's `metrics-by-endpoint` names them.
 */
import { type Collector, join } from "./common.ts";
import { isRecord } from "../yaml_document.ts";

/** How the script's requests are named. */
export interface EndpointNaming {
  useOnlyRequestNames: boolean;
  stripQueryString: boolean;
}

const PLUGIN = "metrics-by-endpoint";
const BOOLEAN_OPTIONS = ["useOnlyRequestNames", "stripQueryString", "groupDynamicURLs"] as const;

/** The naming of `config.plugins.metrics-by-endpoint` (Artillery's defaults when absent). */
export function endpointNaming(plugins: unknown, out: Collector): EndpointNaming {
  const naming = { useOnlyRequestNames: false, stripQueryString: false };
  const options = isRecord(plugins) ? plugins[PLUGIN] : undefined;
  if (options === undefined || options === null) return naming;
  const path = `config.plugins.${PLUGIN}`;
  if (!isRecord(options)) {
    out.issues.push({ path, message: "expected a mapping of options such as {useOnlyRequestNames: true}" });
    return naming;
  }
  for (const [key, value] of Object.entries(options)) {
    const at = join(path, key);
    if (key === "metricsNamespace") continue; // a prefix of Artillery's metric names: loadlab's are its own
    if (!(BOOLEAN_OPTIONS as readonly string[]).includes(key)) {
      const supported = [...BOOLEAN_OPTIONS, "metricsNamespace"].join(", ");
      out.issues.push({ path: at, message: `not supported (loadlab reads ${supported})` });
    } else if (typeof value !== "boolean") out.issues.push({ path: at, message: "expected true or false" });
    else if (key === "groupDynamicURLs") {
      if (!value) {
        out.issues.push({
          path: at,
          message:
            "false names endpoints by filled URLs, unbounded; loadlab names them by the url as written",
        });
      }
    } else naming[key as keyof EndpointNaming] = value;
  }
  return naming;
}

/** Artillery's name of a request: its url after the target's path, without `qs`, and its `name`. */
export function artilleryEndpointName(
  url: string,
  name: unknown,
  basePath: string,
  naming: EndpointNaming,
): string {
  let base = url.startsWith("/") ? basePath + url : url;
  if (/^https?:\/\//i.test(url)) {
    const parsed = new URL(url);
    base = parsed.pathname + parsed.search;
  }
  if (naming.stripQueryString) base = base.replace(/\?.*$/, "");
  try {
    base = decodeURIComponent(base);
  } catch { /* kept as written */ }
  if (typeof name !== "string" || name === "") return base;
  return naming.useOnlyRequestNames ? name : `${base} (${name})`;
}
