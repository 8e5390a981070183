/**
 * @module
 * The attack of one planned run, and `applyParameter`, which varies it for sweeps, grids and the capacity
 * search: `load.<field>`, `query.<name>` (every request and flow step), `target.<field>` (another target).
 */
import type { RelativeAttackInput } from "../../runner/config.ts";
import type { TargetSpec } from "../../targets/spec.ts";
import type { FileFlow, FileRequest } from "../schema/requests.ts";
import { CONFIG_KEYS, type LoadSpec } from "../schema/loads.ts";
import { defined } from "../../validation/defined.ts";
import { MODEL_FIELDS } from "../../runner/config_fields.ts";
import type { PlannedRun } from "./types.ts";
import { dataSpecOf, type ExperimentWithData, flowsOf, grpcCovers } from "./data.ts";
import { grpcAttackFields, grpcFlowAttackFields, grpcReflectAttackFields } from "../grpc/experiment.ts";
import { LOAD_MODEL_FACTS } from "../../results/load_models.ts";

type RequestInput = NonNullable<RelativeAttackInput["requestMix"]>[number];
type FlowInput = NonNullable<RelativeAttackInput["flows"]>[number];

/** `/validate` + `{id: 7}` -> `/validate?id=7` (the path's own query kept, the given names replaced). */
export function withQuery(path: string, query: Record<string, string | number>): string {
  const hash = path.indexOf("?");
  const params = new URLSearchParams(hash < 0 ? "" : path.slice(hash + 1));
  for (const [name, value] of Object.entries(query)) params.set(name, String(value));
  const search = [...params].map(([k, v]) => `${encodeKeeping(k)}=${encodeKeeping(v)}`).join("&");
  return (hash < 0 ? path : path.slice(0, hash)) + (search ? `?${search}` : "");
}

/** Form-encodes `text` but for its `{{ ... }}` placeholders. */
function encodeKeeping(text: string): string {
  return text.split(/(\{\{.*?\}\})/).map((part, k) =>
    k % 2 === 1 ? part : new URLSearchParams({ "": part }).toString().slice(1)
  ).join("");
}

/** A file request as the engine takes it: query in the path, headers as pairs, the body as bytes. */
function toRequestInput(r: FileRequest): RequestInput {
  const headers = Object.entries(r.headers ?? {});
  const text = r.json !== undefined ? JSON.stringify(r.json) : r.body;
  if (r.json !== undefined && !headers.some(([name]) => name.toLowerCase() === "content-type")) {
    headers.push(["content-type", "application/json"]);
  }
  const request: RequestInput = { method: r.method, path: r.query ? withQuery(r.path, r.query) : r.path };
  if (headers.length > 0) request.headers = headers;
  if (text !== undefined) request.body = new TextEncoder().encode(text);
  return Object.assign(request, defined({ weight: r.weight, name: r.name, tags: r.tags }));
}

function toFlowInput(flow: FileFlow): FlowInput {
  return {
    name: flow.name,
    weight: flow.weight,
    ...defined({ maxRedirects: flow.maxRedirects }),
    steps: flow.steps.map((s) =>
      "thinkMs" in s || "ws" in s || "grpc" in s ? s : { ...s, request: toRequestInput(s.request) }
    ),
  };
}

/**
 * The attack of `load` (named `loadName`) at its base (no sweep applied): flows with gRPC steps as a gRPC
 * run, else the load's own flows or mix, else the `grpc:` section's call when it covers the load, else the
 * file's flows (not for throughput loads) or requests, else the engine's default `GET /`.
 */
export function baseAttack(exp: ExperimentWithData, load: LoadSpec, loadName: string): RelativeAttackInput {
  const { mix, flows, data: _data, listener: _listener, ...fields } = load;
  const common = {
    intervalMs: exp.intervalMs,
    warmupMs: exp.warmupMs,
    intervalHistograms: exp.intervalHistograms === "endpoints"
      ? "endpoints" as const
      : exp.intervalHistograms === "keep",
    ...defined({ data: dataSpecOf(exp, load) }),
  };
  // Flows do not apply to a model they cannot drive (throughput: single requests on fixed connections).
  const sessions = LOAD_MODEL_FACTS[load.model].noFlows === undefined;
  const ownFlows = flowsOf(exp, load);
  // A script is the file's sessions too: loads with a mix of their own (or throughput) keep theirs.
  const { file: path, data: _scriptData, ...scriptSpec } = exp.script ?? { file: undefined };
  const script = mix || flows || !sessions || path === undefined ? undefined : { path, ...scriptSpec };
  const scriptLimits = defined({ setupTimeoutMs: exp.setupTimeout, teardownTimeoutMs: exp.teardownTimeout });
  const ownMix = mix ?? (ownFlows || script ? undefined : exp.requests);
  // Flows with gRPC steps make a gRPC run of their load, the section naming their schema.
  const grpcSchema = exp.grpcSchema !== undefined || exp.grpc?.reflect === true;
  if (exp.grpc !== undefined && grpcSchema && ownFlows?.some((f) => f.steps.some((s) => "grpc" in s))) {
    const grpc = grpcFlowAttackFields(exp.grpc, exp.grpcSchema, fields);
    return { ...fields, ...common, flows: ownFlows.map(toFlowInput), ...grpc };
  }
  const grpcLoad = grpcCovers(exp, load, loadName) && !flows ? exp.grpc : undefined;
  if (grpcLoad?.reflect) return { ...fields, ...common, ...grpcReflectAttackFields(grpcLoad, fields) };
  const grpcCall = exp.grpcRequests?.length ? exp.grpcRequests : undefined;
  if (grpcLoad !== undefined && grpcCall !== undefined) {
    return { ...fields, ...common, ...grpcAttackFields(grpcCall, grpcLoad, fields) };
  }
  return {
    ...fields,
    ...common,
    ...defined({
      flows: ownFlows?.map(toFlowInput),
      requestMix: ownMix?.map(toRequestInput),
      script: script && { ...script, ...scriptLimits },
    }),
  };
}

/** `run` with `parameter` set to `value`; the name and sweep coordinates are the caller's. */
export function applyParameter(run: PlannedRun, parameter: string, value: number | string): PlannedRun {
  const dot = parameter.indexOf(".");
  const [scope, field] = [parameter.slice(0, dot), parameter.slice(dot + 1)];
  const next: PlannedRun = structuredClone(run);
  if (scope === "load") next.attack = setLoadField(next.attack, field, value);
  else if (scope === "query") next.attack = setQuery(next.attack, field, value);
  else if (scope === "target") {
    if (next.target.kind !== "spec") throw new Error(`${parameter}: ${run.variant} is a running server`);
    next.target = { kind: "spec", spec: { ...next.target.spec, [field]: value } as TargetSpec };
    next.targetKey = targetKeyOf(next.variant, next.target);
  } else throw new Error(`unknown parameter ${parameter}; use load.<field>, query.<name> or target.<field>`);
  return next;
}

function setLoadField(
  attack: RelativeAttackInput,
  field: string,
  value: number | string,
): RelativeAttackInput {
  if (field === "rate" && typeof value === "number") {
    if ("phases" in attack) {
      return { ...attack, phases: attack.phases.map((p) => ({ ...p, ratePerSec: value })) };
    }
    const { model } = attack;
    if (!("ratePerSec" in MODEL_FIELDS[model])) throw new Error(`load.rate: a ${model} load has no rate`);
    return { ...attack, ratePerSec: value } as RelativeAttackInput;
  }
  if (field === "duration" && typeof value === "number") return withDurationMs(attack, value);
  // Words too (scenarios/sweep_values.ts): the engine's schema checks the value with the plan.
  const key = CONFIG_KEYS[field];
  if (key) return { ...attack, [key]: value };
  const why = typeof value === "string" ? `takes numbers, not ${JSON.stringify(value)}` : "cannot be varied";
  throw new Error(`load.${field} ${why}`);
}

/** The measured duration set to `durationMs` (a one-phase rate load: its phase). */
export function withDurationMs(attack: RelativeAttackInput, durationMs: number): RelativeAttackInput {
  const durationIn = LOAD_MODEL_FACTS[attack.model].durationIn;
  if (durationIn === "stages") throw new Error(`load.duration: a ${attack.model} load lasts its stages`);
  if (durationIn !== "phases" || !("phases" in attack)) {
    return { ...attack, durationMs } as RelativeAttackInput;
  }
  return { ...attack, phases: attack.phases.map((p) => ({ ...p, durationMs })) };
}

function setQuery(attack: RelativeAttackInput, name: string, value: number | string): RelativeAttackInput {
  const query = { [name]: value };
  // Neither a mix nor flows: the engine's default `GET /` gets the parameter.
  const sent = attack.requestMix || attack.flows ? attack : { ...attack, requestMix: [{}] };
  return withPaths(sent, (path) => withQuery(path, query));
}

/** `attack` with `f` applied to every path it sends to: requests (`/` when unset) and ws connects. */
export function withPaths<A extends RelativeAttackInput>(attack: A, f: (path: string) => string): A {
  const requestMix = attack.requestMix?.map((r) => ({ ...r, path: f(r.path ?? "/") }));
  const flows = attack.flows?.map((flow) => ({
    ...flow,
    steps: flow.steps.map((s) =>
      "request" in s
        ? { ...s, request: { ...s.request, path: f(s.request.path ?? "/") } }
        : "ws" in s && s.ws.connect !== undefined
        ? { ...s, ws: { ...s.ws, connect: f(s.ws.connect) } }
        : s
    ),
  }));
  return { ...attack, ...(requestMix ? { requestMix } : {}), ...(flows ? { flows } : {}) };
}

/** Equal for equal target configurations of one variant, any key order: equal keys share a target. */
export function targetKeyOf(variant: string, target: PlannedRun["target"]): string {
  return `${variant}\u0000${stableJson(target)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) =>
      a < b ? -1 : 1
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
