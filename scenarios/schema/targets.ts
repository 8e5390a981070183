/**
 * @module
 * The `targets:` section of experiment files.
 */
import { z } from "zod";
import { resolve } from "node:path";
import {
  type BuiltinSpec,
  builtinSpecSchema,
  cmsSchema,
  type ExampleSpec,
  exampleSpecSchema,
  type ExternalSpec,
  externalSpecSchema,
  profileBlocker,
  type ProxySpec,
  proxySpecSchema,
} from "../../targets/spec.ts";
import { nameProblem, nameSchema } from "./requests.ts";
import { RESERVED_KEYS } from "../overrides.ts";
import { customIssue } from "../../validation/mod.ts";
import { NOT_PORT_ZERO, urlHostProblem } from "../../runner/config_fields.ts";

const httpUrlSchema = z.string().url({
  error: (i) => urlHostProblem(String(i.input)) ?? "url must be an absolute URL, e.g. http://127.0.0.1:3000",
}).refine(
  (u) => u.startsWith("http://") || u.startsWith("https://"),
  "url must start with http:// or https://",
).refine(...NOT_PORT_ZERO);

/** A server already running: nothing is started or stopped. */
const urlTargetSchema = z.strictObject({
  kind: z.literal("url").optional(),
  url: httpUrlSchema,
}).transform((t) => ({ kind: "url" as const, url: t.url }));
type UrlTarget = z.output<typeof urlTargetSchema>;

/** A proxy as written in a file: its upstream may be the name of another target. */
type FileProxy = Omit<ProxySpec, "upstream"> & { upstream: string | FileTarget };
/** One variant as written in a file (after defaults). */
export type FileTarget = BuiltinSpec | ExternalSpec | ExampleSpec | FileProxy | UrlTarget;

/** Strict down to `cms`, so a mistyped pool option is an error, not a silently default pool. */
const builtinSchema = builtinSpecSchema.extend({ cms: cmsSchema.strict().optional() }).strict();

const externalSchema = externalSpecSchema.extend({
  // `localhost:3000` parses as a URL of scheme "localhost:"; the app would never be found ready.
  url: httpUrlSchema,
  ready: externalSpecSchema.shape.ready.unwrap().strict().optional(),
}).strict().superRefine((t, ctx) => {
  // `profile: cpu` needs a process with a V8 inspector: the command must be node or deno.
  const blocker = t.profile && profileBlocker(t);
  if (blocker) customIssue(ctx, ["profile"], blocker);
});

const proxySchema = proxySpecSchema.extend({
  upstream: z.union([nameSchema, z.lazy(() => targetSchema)]).meta({
    expected: "the name of another target, {url: ...} or a target spec",
  }),
  rateLimit: proxySpecSchema.shape.rateLimit.unwrap().strict().optional(),
}).strict();

/** Any variant, chosen by `kind`; without `kind` it is `{url}`. */
const targetSchema: z.ZodType<FileTarget> = z.discriminatedUnion("kind", [
  builtinSchema,
  externalSchema,
  exampleSpecSchema.strict(),
  proxySchema,
  urlTargetSchema,
]).meta({
  id: "target",
  description: "A target spec by kind (builtin, external, example, proxy), or {url} of a running server",
});

export const targetsSchema = namedRecord(targetSchema, "target");

/** A record keyed by names (targets, loads), with at least one entry and a clear word on a bad name. */
export function namedRecord<T extends z.ZodType>(value: T, what: string) {
  return z.record(z.string(), value).superRefine((record, ctx) => {
    if (Object.keys(record).length === 0) {
      customIssue(ctx, [], `needs at least one ${what}`);
    }
    for (const name of Object.keys(record)) {
      if (RESERVED_KEYS.has(name)) {
        customIssue(ctx, [name], `"${name}" is a reserved word, not a ${what} name: rename it, e.g. app`);
        continue;
      }
      const problem = nameProblem(name);
      if (!problem) continue;
      const message = problem.startsWith("names ")
        ? `${what} names use letters, digits, '.', '_' and '-' (they become part of run names)`
        : `${what} name ${problem}`;
      customIssue(ctx, [name], message);
    }
  });
}

/** Targets with a relative `cwd`, `command` or `args` path anchored to `folder` (the experiment file's). */
export function anchorTargets(
  targets: Record<string, FileTarget>,
  folder: string,
): Record<string, FileTarget> {
  return Object.fromEntries(Object.entries(targets).map(([name, t]) => [name, anchored(t, folder)]));
}

function anchored(target: FileTarget, folder: string): FileTarget {
  if (target.kind === "external") return { ...target, cwd: resolve(folder, target.cwd ?? ".") };
  if (target.kind === "proxy" && typeof target.upstream !== "string") {
    return { ...target, upstream: anchored(target.upstream, folder) };
  }
  return target;
}
