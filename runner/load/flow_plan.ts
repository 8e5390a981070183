/**
 * @module
 * Flows ready for the session loop: steps encoded once per worker, each placeholder a fixed value index.
 */
import { shownName } from "../../validation/shown_name.ts";
import type { FlowSpec } from "../flow_spec.ts";
import { type EncodedRequest, encodeRequest, resolvePath } from "../http/request.ts";
import { compileExtract, filledText, type StepExtract } from "./step_checks.ts";
import { hasPlaceholder, textParts } from "../http/template.ts";
import { DEFAULT_KEPT_BYTES } from "../http/kept_bytes.ts";
import { encodeH2Request, type H2Request } from "../http/h2/request.ts";
import { type EncodedWsStep, encodeWsStep } from "./ws_steps.ts";
import { wsStepLabel } from "../endpoint_table.ts";
import type { GrpcStep } from "../grpc_step_spec.ts";
import type { RequestSpec } from "../request_spec.ts";
import type { StepResponse } from "../http/kept_response.ts";
import { compileCondition, sessionValue } from "../step_condition.ts";

/** A step's text (its path, its authority) with the session's `values` filled in: `parts` when it has any. */
export function stepText(
  text: string,
  parts: ReadonlyArray<string | number> | null,
  values: ReadonlyArray<Uint8Array>,
): string {
  return parts === null ? text : filledText(parts, values);
}

/** What of a response a step keeps: nothing (the usual path), its head, or head and body. */
export const KEEP_NONE = 0;
const KEEP_HEAD = 1;
export const KEEP_ALL = 2;

/** One step of an encoded flow: a request (with its index among the flow's request steps) or a pause. */
export type EncodedStep =
  | {
    kind: "request";
    request: EncodedRequest;
    /** The same request for HTTP/2 (a template with cookies, as `request` is), or null over HTTP/1.1. */
    h2: H2Request | null;
    stepIndex: number;
    extract: StepExtract | null;
    keep: number;
    /** The most bytes of its response the step keeps (its `maxKeptBytes`, else 1 MiB). */
    maxKeptBytes: number;
    /** The path as literal parts and value indexes when it has placeholders (for cookie paths), else null. */
    pathParts: Array<string | number> | null;
    /** The host the request names (its Host header, else the URL's host): what scopes its cookies. */
    authority: string;
    /** `authority` as parts and value indexes when it has placeholders, else null. */
    authorityParts: Array<string | number> | null;
    /** A gRPC step: how its replies are read (grpc_steps.ts), else null. */
    grpc: GrpcStepReply | null;
    /** Its `ifTrue` over the session's values (false: the session skips it), else null. */
    condition: ((values: ReadonlyArray<Uint8Array>) => boolean) | null;
    /** Redirects a session follows after it (its `maxRedirects`, else 0), each hop a request of this step. */
    maxRedirects: number;
    /** The hop to a redirect's Location from `fromPath` (a 303 GETs, bodiless); null: another origin. */
    hop: (location: string, fromPath: string, status: number) => RequestStep | null;
  }
  | { kind: "think"; thinkMs: number }
  | EncodedWsStep;

type RequestStep = Extract<EncodedStep, { kind: "request" }>;

export interface EncodedFlow {
  name: string;
  steps: EncodedStep[];
  /** Labels of the request steps, in order (what results name them). */
  labels: string[];
  /** Per request step, the names of its checks (what results count them under). */
  checkNames: string[][];
  /** Think time before the first request: the first request's intended time is arrival + this. */
  leadingThinkMs: number;
  /** The session's values by index: data columns, then capture names. */
  names: string[];
  hasWs: boolean;
}

/** The value names of a flow: `columns`, then each capture's name not among them yet. */
function valueNamesOf(flow: FlowSpec, columns: readonly string[]): string[] {
  const names = [...columns];
  for (const step of flow.steps) {
    if ("thinkMs" in step) continue;
    for (const c of step.capture ?? []) if (!names.includes(c.as)) names.push(c.as);
  }
  return names;
}

interface GrpcStepReply {
  read(kept: StepResponse): StepResponse;
}

/** The flows' gRPC steps: loaded only for a run that has one, so protobuf stays out of other workers. */
export interface GrpcStepMaker {
  request(step: GrpcStep, timeoutMs: number): { spec: RequestSpec; reply: GrpcStepReply };
}

/** Encodes each flow's requests once, paths joined as the mix's; `h2`: HEADERS too; `endpoints`: per step. */
export function encodeFlows(
  url: URL,
  flows: readonly FlowSpec[],
  columns: readonly string[] = [],
  cookies = false,
  h2 = false,
  endpoints: readonly (readonly number[])[] = [],
  timeoutMs = 10_000,
  grpcSteps: GrpcStepMaker | null = null,
): EncodedFlow[] {
  return flows.map((flow, f) => {
    const names = valueNamesOf(flow, columns);
    const indexOf = (name: string) => names.indexOf(name);
    const steps: EncodedStep[] = [];
    const labels: string[] = [];
    const checkNames: string[][] = [];
    let leadingThinkMs = 0;
    let connectPath = "";
    for (const step of flow.steps) {
      if ("thinkMs" in step) {
        if (labels.length === 0) leadingThinkMs += step.thinkMs;
        steps.push({ kind: "think", thinkMs: step.thinkMs });
        continue;
      }
      if ("ws" in step) {
        if (step.ws.connect !== undefined) connectPath = step.ws.connect;
        const label = wsStepLabel(step, connectPath);
        const at = label === null ? -1 : labels.length;
        const ws = encodeWsStep(step, url, indexOf, timeoutMs, at, at < 0 ? -1 : endpoints[f]?.[at] ?? -1);
        steps.push(ws);
        if (label === null) continue;
        labels.push(shownName(label));
        checkNames.push(ws.extract?.checks.map((c) => shownName(c.name)) ?? []);
        continue;
      }
      const grpc = "grpc" in step ? grpcSteps!.request(step.grpc, timeoutMs) : null;
      const label = step.label ??
        ("grpc" in step ? step.grpc.call : `${step.request.method} ${step.request.path}`);
      const request = encodeRequestStep(
        "grpc" in step ? { ...step, request: grpc!.spec } : step,
        url,
        names,
        { cookies, h2, maxRedirects: flow.maxRedirects ?? 0 },
        labels.length,
        endpoints[f]?.[labels.length] ?? 0,
      );
      steps.push({ ...request, grpc: grpc?.reply ?? null });
      labels.push(shownName(label));
      checkNames.push(request.extract?.checks.map((c) => shownName(c.name)) ?? []);
    }
    const hasWs = steps.some((s) => s.kind === "ws");
    return { name: shownName(flow.name), steps, labels, checkNames, leadingThinkMs, names, hasWs };
  });
}

function encodeRequestStep(
  step: Omit<Extract<FlowSpec["steps"][number], { request: unknown }>, "grpc">,
  url: URL,
  names: readonly string[],
  run: { cookies: boolean; h2: boolean; maxRedirects: number },
  stepIndex: number,
  endpoint: number,
): Omit<RequestStep, "grpc"> {
  const host = url.host;
  const indexOf = (name: string) => names.indexOf(name);
  const spec = step.request;
  const request = {
    ...encodeRequest(host, { ...spec, path: resolvePath(url, spec.path) }, names, run.cookies),
    endpoint,
  };
  const hasExtract = (step.capture?.length ?? 0) + (step.expect?.length ?? 0) > 0;
  const extract = hasExtract ? compileExtract(step.capture ?? [], step.expect ?? [], indexOf) : null;
  const maxRedirects = step.maxRedirects ?? run.maxRedirects;
  const keep = extract?.needsBody
    ? KEEP_ALL
    : extract !== null || run.cookies || maxRedirects > 0
    ? KEEP_HEAD
    : KEEP_NONE;
  // Its redirects' hops, each the step again (without its ifTrue), encoded once per Location (64 kept).
  const hops = new Map<string, RequestStep>();
  // The last Host header given wins, as it does for HTTP/2's :authority (h2/request.ts).
  const authority = spec.headers.findLast(([n]) => n.toLowerCase() === "host")?.[1] ?? host;
  return {
    kind: "request",
    request,
    h2: run.h2 ? { ...encodeH2Request(url, spec, names, run.cookies), endpoint } : null,
    stepIndex,
    extract,
    keep,
    maxKeptBytes: step.maxKeptBytes ?? DEFAULT_KEPT_BYTES,
    pathParts: hasPlaceholder(request.path) ? textParts(request.path, indexOf) : null,
    authority,
    authorityParts: hasPlaceholder(authority) ? textParts(authority, indexOf) : null,
    condition: step.ifTrue === undefined ? null : compileCondition(step.ifTrue, (name) => {
      const k = indexOf(name);
      return (values: ReadonlyArray<Uint8Array>) => sessionValue(values[k]);
    }),
    maxRedirects,
    hop(location, fromPath, status) {
      const to = URL.parse(location, new URL(fromPath, url));
      if (to === null || to.origin !== url.origin) return null;
      // As got (Artillery's client): a 303 turns any method but GET and HEAD into a GET without a body.
      const get = status === 303 && spec.method !== "GET" && spec.method !== "HEAD";
      const key = `${get ? "G" : ""}${to.pathname}${to.search}`;
      const path = to.pathname + to.search;
      const content = /^content-/i;
      const request = get
        ? {
          ...spec,
          path,
          method: "GET",
          body: undefined,
          headers: spec.headers.filter(([n]) => !content.test(n)),
        }
        : { ...spec, path };
      let hop = hops.get(key);
      if (hop === undefined) {
        const again = { ...step, request, ifTrue: undefined };
        hop = { ...encodeRequestStep(again, url, names, run, stepIndex, endpoint), grpc: null };
        if (hops.size < 64) hops.set(key, hop);
      }
      return hop;
    },
  };
}
