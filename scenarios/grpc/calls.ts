/**
 * @module
 * A gRPC run's calls, from `attack grpc://` flags or an experiment's `grpc:`, as its request mix.
 */
import type { Root } from "protobufjs";
import type { RequestSpec } from "../../runner/request_spec.ts";
import { findMethod, GrpcSchemaError, loadProtoFile, loadProtoset } from "../../runner/http/grpc/schema.ts";
import { type GrpcCallSource, grpcCallSpec } from "../../runner/http/grpc/call_spec.ts";
import { reflectSchema } from "../../runner/http/grpc/reflection.ts";
import type { OneOffTls } from "../../runner/http/one_off_grpc.ts";
import { hasPlaceholder } from "../../runner/http/template.ts";

/** Where a run's schema comes from, and what it calls. */
export interface GrpcSource extends GrpcCallSource {
  readonly proto?: string;
  readonly importPaths?: readonly string[];
  readonly protoset?: string;
  /** Ask the server's reflection service (at `origin`). */
  readonly reflect?: boolean;
  readonly reflectMetadata?: Record<string, string>;
}

/** The schema `source` names; with none of proto, protoset or reflect, a usage problem. */
export async function schemaOf(
  source: GrpcSource,
  origin: string,
  timeoutMs: number,
  tls: OneOffTls = {},
): Promise<Root> {
  const given = [source.proto, source.protoset, source.reflect || undefined].filter((v) => v !== undefined);
  if (given.length !== 1) {
    throw new GrpcSchemaError(
      given.length === 0 ? "a gRPC run needs its schema" : "give one schema, not several",
      "--proto FILE (-i DIR for its imports), --protoset FILE, or --reflect",
    );
  }
  if (source.proto !== undefined) return loadProtoFile(source.proto, source.importPaths ?? []);
  if (source.protoset !== undefined) return loadProtoset(source.protoset);
  return await reflectSchema(origin, timeoutMs, tls, source.reflectMetadata);
}

/** The run's request mix for `source` against `root`: one call (runner/http/grpc/call_spec.ts). */
export function grpcRequestMix(root: Root, source: GrpcSource, timeoutMs: number): RequestSpec[] {
  return roundRobin(root, source).map((message) => grpcCallSpec(root, { ...source, message }, timeoutMs));
}

/** The messages a call without a client stream takes in turn, as ghz takes a JSON array's elements. */
function roundRobin(root: Root, source: GrpcSource): Array<string | undefined> {
  const text = source.message;
  if (
    text === undefined || !text.trimStart().startsWith("[") || findMethod(root, source.call).clientStreaming
  ) {
    return [text];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [text];
  }
  // A text with no `{{` has none in its messages either (a JSON escape, `\u007b{`, written again).
  const json = (m: unknown) =>
    hasPlaceholder(text) ? JSON.stringify(m) : JSON.stringify(m).replace(/\{(?=\{)/g, "\\u007b");
  return Array.isArray(parsed) && parsed.length > 0 ? parsed.map(json) : [text];
}
