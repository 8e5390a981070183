/**
 * @module
 * Data files read at plan time; each `{{ ... }}` checked against columns, captures, built-ins.
 */
import type { WsAction } from "../../runner/ws_step_spec.ts";
import { dirname, isAbsolute, join } from "node:path";
import type { DataSpec } from "../../runner/session_schema.ts";
import { placeholdersOf } from "../../runner/http/template.ts";
import type { Issue } from "../../validation/mod.ts";
import { DataFileError, type DataTable, readDataFile } from "../data_sources.ts";
import type { Experiment } from "../schema/experiment.ts";
import type { RequestSpec } from "../../runner/request_spec.ts";
import type { FileFlow, FileRequest } from "../schema/requests.ts";
import { type LoadSpec, mixKeyOf } from "../schema/loads.ts";
import { LOAD_MODEL_FACTS } from "../../results/load_models.ts";

/** An experiment with its data files read (`dataTables` by source name). */
export type ExperimentWithData = Experiment & {
  dataTables?: Record<string, DataTable>;
  /** The `grpc:` section's call, encoded when the file was loaded (scenarios/grpc/experiment.ts). */
  grpcRequests?: RequestSpec[];
  /** The `grpc:` section's schema as a FileDescriptorSet, when flows have gRPC steps (grpc/read.ts). */
  grpcSchema?: Uint8Array<ArrayBuffer>;
};

/** Reads the data files of `exp`; problems (missing file, bad row) as issues at `data.NAME.file`. */
export function readDataTables(exp: Experiment, experimentFile?: string) {
  const tables: Record<string, DataTable> = {};
  const issues: Issue[] = [];
  const base = experimentFile === undefined ? Deno.cwd() : dirname(experimentFile);
  for (const [name, source] of Object.entries(exp.data ?? {})) {
    const path = isAbsolute(source.file) ? source.file : join(base, source.file);
    try {
      tables[name] = readDataFile(path, source);
    } catch (err) {
      if (!(err instanceof DataFileError)) throw err;
      issues.push({ path: `data.${name}.file`, message: err.message });
    }
  }
  return { tables, issues };
}

/** The data source a load uses: its own `data:`, else the one its flows name (all the same). */
function dataNameOf(exp: Experiment, load: LoadSpec): string | undefined {
  if (load.data !== undefined) return load.data;
  if (exp.script !== undefined && !load.mix && LOAD_MODEL_FACTS[load.model].noFlows === undefined) {
    return exp.script.data;
  }
  return flowsOf(exp, load)?.find((f) => f.data !== undefined)?.data;
}

/** The flows a load runs (its own, else the file's unless a throughput load or a mix of its own). */
export function flowsOf(exp: Experiment, load: LoadSpec): FileFlow[] | undefined {
  if (load.flows) return load.flows;
  if (load.mix || LOAD_MODEL_FACTS[load.model].noFlows !== undefined) return undefined;
  return exp.flows;
}

export function dataSpecOf(exp: ExperimentWithData, load: LoadSpec): DataSpec | undefined {
  const name = dataNameOf(exp, load);
  if (name === undefined) return undefined;
  const source = exp.data?.[name];
  const table = exp.dataTables?.[name];
  if (source === undefined || table === undefined) throw new Error(`data source ${name} was not read`);
  return { name, columns: table.columns, rows: table.rows, order: source.order, whenDone: source.whenDone };
}

/** Every text of a request a placeholder may be in. */
function textsOf(r: FileRequest): string[] {
  const texts = [r.path, ...Object.entries(r.headers ?? {}).flat()];
  for (const value of Object.values(r.query ?? {})) texts.push(String(value));
  if (r.body !== undefined) texts.push(r.body);
  if (r.json !== undefined) texts.push(JSON.stringify(r.json));
  return texts;
}

/** Why `{{ name }}` cannot be filled: neither a column of `source` nor captured before. */
function unknownName(name: string, source: string | undefined): string {
  const from = source === undefined ? "the load has no data: source" : `it is not a column of data ${source}`;
  return `{{ ${name} }} is unknown: ${from}, and no earlier step captures it; use a data column or an earlier capture's name`;
}

/** Every placeholder and data problem of every load of `exp` (data tables already read). */
export function templateIssues(exp: ExperimentWithData): Issue[] {
  const issues: Issue[] = [];
  for (const [loadName, load] of Object.entries(exp.loads)) {
    const at = `loads.${loadName}`;
    const flows = flowsOf(exp, load);
    const names = new Set([load.data, ...(flows ?? []).map((f) => f.data)].filter((n) => n !== undefined));
    if (names.size > 1) {
      issues.push({ path: at, message: `one data source per load; found ${[...names].join(" and ")}` });
      continue;
    }
    const source = dataNameOf(exp, load);
    if (source !== undefined && exp.data?.[source] === undefined) {
      issues.push({ path: `${at}.data`, message: `no data source ${source}; define it under data:` });
      continue;
    }
    const columns = source === undefined ? [] : exp.dataTables?.[source]?.columns ?? [];
    // A problem is named where it is written: the load's own flows or mix, else the file's.
    if (flows) {
      const where = load.flows ? `${at}.flows` : "flows";
      flows.forEach((flow, k) => issues.push(...flowIssues(flow, columns, `${where}[${k}]`, source)));
    } else if (grpcCovers(exp, load, loadName)) {
      const texts = [JSON.stringify(exp.grpc!.message), ...Object.values(exp.grpc!.metadata)];
      issues.push(...textIssues(texts, new Set(columns), "grpc.message", source));
    } else {
      const where = load.mix ? `${at}.${mixKeyOf(load.model)}` : "requests";
      for (const r of load.mix ?? exp.requests ?? []) {
        issues.push(...textIssues(textsOf(r), new Set(columns), where, source, `${r.method} ${r.path}: `));
      }
    }
  }
  // One problem once, though several loads share the file's flows or requests.
  return [...new Map(issues.map((i) => [`${i.path}\u0000${i.message}`, i])).values()];
}

/** Whether the `grpc:` section's call covers `load`: its loads list it and it has no mix of its own. */
export function grpcCovers(exp: ExperimentWithData, load: LoadSpec, loadName: string): boolean {
  const loads = exp.grpc?.loads;
  const call = exp.grpc?.call !== undefined;
  return call && !load.mix && (loads === undefined || loads.includes(loadName));
}

function flowIssues(flow: FileFlow, columns: readonly string[], at: string, source?: string): Issue[] {
  const known = new Set(columns);
  const issues: Issue[] = [];
  flow.steps.forEach((step, j) => {
    if ("thinkMs" in step) return;
    if ("request" in step) {
      const r = step.request;
      issues.push(...textIssues(textsOf(r), known, `${at}.steps[${j}]`, source, `${r.method} ${r.path}: `));
    } else if ("grpc" in step) {
      const texts = [JSON.stringify(step.grpc.message), ...Object.values(step.grpc.metadata)];
      issues.push(...textIssues(texts, known, `${at}.steps[${j}].grpc`, source));
    } else issues.push(...textIssues(wsTextsOf(step.ws), known, `${at}.steps[${j}].ws`, source));
    // A check runs before its step's captures: it may use the data's columns and earlier captures.
    (step.expect ?? []).forEach((check, k) => {
      const text = check.contains ?? (typeof check.equals === "string" ? check.equals : "");
      issues.push(...textIssues([text], known, `${at}.steps[${j}].expect[${k}]`, source));
    });
    for (const c of step.capture ?? []) known.add(c.as);
  });
  return issues;
}

/** Every text of a ws step a placeholder may be in: its path, header values, message and match. */
function wsTextsOf(ws: WsAction): string[] {
  const match = ws.match ?? ws.wait;
  const matchText = match?.contains ?? (typeof match?.equals === "string" ? match.equals : undefined);
  return [ws.connect, ...Object.values(ws.headers ?? {}), ws.send, matchText].filter((t) => t !== undefined);
}

/** Problems of the placeholders in `texts` given the names `known`, at `path` (`what` before a name). */
function textIssues(
  texts: readonly string[],
  known: ReadonlySet<string>,
  path: string,
  source?: string,
  what = "",
): Issue[] {
  return texts.flatMap(placeholdersOf).flatMap((p) =>
    typeof p === "string"
      ? [{ path, message: p }]
      : p.kind === "name" && !known.has(p.name)
      ? [{ path, message: what + unknownName(p.name, source) }]
      : []
  );
}
