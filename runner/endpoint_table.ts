/**
 * @module
 * The endpoints of an attack, fixed before the load so the hot path records by one array index.
 */
import { shownName } from "../validation/shown_name.ts";
import type { CommonFields } from "./config_fields.ts";
import type { RequestSpec } from "./request_spec.ts";
import { resolvePath } from "./http/request.ts";
import { MAX_ENDPOINTS, OTHER_ENDPOINT } from "./endpoint_limits.ts";
import type { WsAction } from "./ws_step_spec.ts";
import type { GrpcStep } from "./grpc_step_spec.ts";

/** One endpoint: its name, the method of its (first) request, and the user tags of its requests. */
export interface EndpointInfo {
  name: string;
  method: string;
  tags: Record<string, string>;
  /** Distinct requests that share this name (1 unless a name was reused; pooled like k6's tags). */
  requests: number;
}

/** What makes two requests the same request (name aside): method, path, headers and body. */
function identityOf(url: URL, spec: RequestSpec): string {
  const body = spec.body === undefined ? "" : new TextDecoder().decode(spec.body);
  return JSON.stringify([spec.method, resolvePath(url, spec.path), spec.headers, body]);
}

/** The run's endpoints (flows' steps, else the mix) and each request's endpoint index (-1: a ws connect). */
export function endpointTable(config: Pick<CommonFields, "url" | "requestMix" | "flows">) {
  const url = new URL(config.url);
  const endpoints: EndpointInfo[] = [];
  const identities: Set<string>[] = [];
  /** Flow steps whose name an endpoint of the other kind (HTTP vs ws) has: config checks refuse them. */
  const clashes: Array<{ flow: number; step: number; name: string }> = [];
  const indexOf = (spec: RequestSpec, label?: string, at?: { flow: number; step: number }): number => {
    // As outputs keep names (one line, bounded), so step labels and endpoints agree; "/" is the URL's path.
    const name = shownName(spec.name ?? label ?? `${spec.method} ${resolvePath(url, spec.path)}`);
    let index = endpoints.findIndex((e) => e.name === name);
    const kept = index >= 0 || endpoints.length < MAX_ENDPOINTS ? name : OTHER_ENDPOINT;
    if (kept !== name) index = endpoints.findIndex((e) => e.name === OTHER_ENDPOINT);
    if (index < 0) {
      index = endpoints.push({ name: kept, method: spec.method, tags: {}, requests: 0 }) - 1;
      identities.push(new Set());
    }
    const endpoint = endpoints[index];
    if (
      at !== undefined && (endpoint.method === "WS") !== (spec.method === "WS") && name !== OTHER_ENDPOINT
    ) {
      clashes.push({ ...at, name });
    }
    Object.assign(endpoint.tags, spec.tags ?? {});
    identities[index].add(identityOf(url, spec));
    endpoint.requests = identities[index].size;
    return index;
  };
  const flows = (config.flows ?? []).map((flow, f) => {
    let connectPath = "";
    return flow.steps.flatMap((step, k) => {
      if ("request" in step) return [indexOf(step.request, step.label, { flow: f, step: k })];
      // A gRPC step's endpoint is its method (or its label), as a gRPC mix's calls are.
      if ("grpc" in step) return [indexOf(grpcEndpointSpec(step.grpc, step.label))];
      if (!("ws" in step)) return [];
      if (step.ws.connect !== undefined) connectPath = step.ws.connect;
      const label = wsStepLabel(step, connectPath);
      // A connect is timed as a flow step; its handshake counts in the ws section, not as an endpoint.
      if (label === null || step.ws.connect !== undefined) return label === null ? [] : [-1];
      const name = wsEndpointName(step, label);
      const spec: RequestSpec = { method: "WS", path: connectPath, headers: [], weight: 1, name };
      return [indexOf(spec, label, { flow: f, step: k })];
    });
  });
  const mix = config.requestMix.map((spec) => config.flows === undefined ? indexOf(spec) : 0);
  return { endpoints, mix, flows, clashes };
}

/** A gRPC step as its endpoint sees it: named by `label`, else its method. */
function grpcEndpointSpec(step: GrpcStep, label?: string): RequestSpec {
  return {
    method: "POST",
    path: `/${step.call}`,
    headers: Object.entries(step.metadata),
    body: new TextEncoder().encode(JSON.stringify(step.message)),
    weight: 1,
    name: label ?? step.call,
  };
}

/** A ws step as the flow plan and the endpoint table read it. */
interface WsStepLike {
  ws: WsAction;
  label?: string;
  capture?: readonly unknown[];
  expect?: readonly unknown[];
}

/** Whether the step waits for a message: a wait, or a send with a match, captures or checks. */
export function wsStepWaits(step: WsStepLike): boolean {
  if (step.ws.wait !== undefined) return true;
  return step.ws.send !== undefined &&
    (step.ws.match !== undefined || (step.capture?.length ?? 0) + (step.expect?.length ?? 0) > 0);
}

/** How flow results name a ws step (`label`, `name`, `WS CONNECT path` ...); null for one timing nothing. */
export function wsStepLabel(step: WsStepLike, connectPath: string): string | null {
  if (step.ws.connect !== undefined) return step.label ?? `WS CONNECT ${step.ws.connect}`;
  if (!wsStepWaits(step)) return null;
  return step.label ?? step.ws.name ?? `WS ${step.ws.wait !== undefined ? "WAIT" : "SEND"} ${connectPath}`;
}

/** The endpoint a waiting step's message counts under: its `name`, else its label. */
export function wsEndpointName(step: WsStepLike, label: string): string {
  return step.ws.name ?? label;
}
