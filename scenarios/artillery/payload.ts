/**
 * @module
 * Artillery `config.payload` -> the data source of an imported script.
 */
import { type Collector, isRecord, join, rejectUnknownKeys } from "./common.ts";
import { tagOrigin } from "./paths.ts";

const PAYLOAD_KEYS = ["path", "fields", "order", "skipHeader"];

/** `config.payload` (one CSV file, a row per virtual user) as a loadlab data source. */
export function convertPayload(payload: unknown, out: Collector) {
  if (payload === undefined) return undefined;
  const one = Array.isArray(payload) && payload.length === 1 ? payload[0] : payload;
  const path = Array.isArray(payload) ? "config.payload[0]" : "config.payload";
  if (!isRecord(one)) {
    out.issues.push({
      path: "config.payload",
      message: "expected one payload {path, fields} (several are not supported)",
    });
    return undefined;
  }
  rejectUnknownKeys(one, path, PAYLOAD_KEYS, out);
  const fields = one.fields;
  if (typeof one.path !== "string" || !Array.isArray(fields) || !fields.every((f) => typeof f === "string")) {
    out.issues.push({ path, message: "a payload needs path (a CSV file) and fields (its column names)" });
    return undefined;
  }
  if (one.order !== undefined && one.order !== "random" && one.order !== "sequence") {
    out.issues.push({
      path: join(path, "order"),
      message: `expected random or sequence, found ${JSON.stringify(one.order)}`,
    });
  }
  const source = {
    file: one.path,
    fields: fields as string[],
    order: one.order === "sequence" ? "sequential" : "random",
    ...(one.skipHeader === true ? { skipHeader: true } : {}),
  };
  // The source's keys are the payload's, but for its file (`path` in the script).
  const keys = { file: join(path, "path") };
  return {
    source: tagOrigin(out.origins, source, { at: path, keys, mirrors: true }),
    fields: fields as string[],
  };
}
