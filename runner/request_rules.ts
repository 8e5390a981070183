/**
 * @module
 * What a request's static text may hold wherever it enters loadlab: token header names, one-line values,
 * framing headers loadlab's own (a user's would smuggle), a path without whitespace or NUL.
 */
import type { z } from "zod";
import { TCHAR } from "../http1/chars.ts";
import { hasPlaceholder } from "./http/template.ts";
import { OTHER_ENDPOINT } from "./endpoint_limits.ts";
import { customIssue } from "../validation/mod.ts";

export function headerNameProblem(name: string): string | undefined {
  if (hasPlaceholder(name)) return undefined;
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    if (c > 127 || TCHAR[c] !== 1) {
      return `header name ${
        JSON.stringify(name)
      } is not a token: use letters, digits and !#$%&'*+-.^_\`|~ only, e.g. "x-api-key"`;
    }
  }
  if (name.length === 0) return 'a header needs a name, e.g. "x-api-key"';
  const lower = name.toLowerCase();
  if (lower === "content-length" || lower === "transfer-encoding") {
    return `${name} is loadlab's to set: it frames each body with its Content-Length; drop the header`;
  }
  return undefined;
}

export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n\0]/.test(value)) {
    return "header values cannot contain line breaks (CR, LF) or NUL; put the value on one line";
  }
  // deno-lint-ignore no-control-regex
  if (/[\x01-\x08\x0b-\x1f\x7f]/.test(value)) {
    return "header values cannot contain control characters (tab is the one allowed); remove them";
  }
  if (/^[ \t]|[ \t]$/.test(value)) {
    return "header values cannot start or end with a space or tab (HTTP/2 refuses them); remove them";
  }
  return undefined;
}

/** Why `path` cannot be a request's path, or undefined (placeholders are left out of the check). */
export function pathProblem(path: string): string | undefined {
  if (/[\s\0]/.test(path.replace(/\{\{.*?\}\}/g, ""))) {
    return "a path cannot contain spaces, tabs, line breaks or NUL; percent-encode them, e.g. %20";
  }
  return undefined;
}

/** A zod refinement adding `problem`'s sentence as the issue of the value it finds wrong. */
export function ruleOf(problem: (text: string) => string | undefined) {
  return (text: string, ctx: z.RefinementCtx): void => {
    const message = problem(text);
    if (message !== undefined) customIssue(ctx, [], message);
  };
}

/** A zod refinement of headers (`[name, value]` pairs): each problem at its name's path (`headers.x:bad`). */
export function headerRules(
  headers: Iterable<readonly [string, string]>,
  ctx: z.RefinementCtx,
  pathOf: (name: string, k: number, part: 0 | 1) => PropertyKey[],
): void {
  let k = 0, hosts = 0;
  for (const [name, value] of headers) {
    // Two Host fields make a request servers refuse (RFC 9112 3.2: 400): which one was meant is unknown.
    if (name.toLowerCase() === "host" && ++hosts === 2) {
      customIssue(ctx, pathOf(name, k, 0), "Host is given twice: drop one");
    }
    const nameIssue = headerNameProblem(name);
    if (nameIssue !== undefined) {
      customIssue(ctx, pathOf(name, k, 0), nameIssue);
    }
    const valueIssue = headerValueProblem(value);
    if (valueIssue !== undefined) {
      customIssue(ctx, pathOf(name, k, 1), valueIssue);
    }
    k++;
  }
}

/** A zod refinement of a request's user tags: each name must be writable in a threshold's selector. */
export function tagRules(tags: Record<string, string>, ctx: z.RefinementCtx): void {
  for (const name of Object.keys(tags)) {
    // A selector's `name` and `method` are the request's own: a tag of either could never be selected.
    if (name === "name" || name === "method") {
      customIssue(
        ctx,
        [name],
        `a selector's {${name}:...} is the request's own ${name}: set the request's ${name}, or use another tag name`,
      );
      continue;
    }
    if (/^[A-Za-z_][\w.-]*$/.test(name)) continue;
    customIssue(ctx, [name], "a tag name is letters, digits, _ . - (starting with a letter or _), e.g. tier");
  }
}

/** Why `name` cannot name an endpoint: the name the endpoints past the cap count under is loadlab's. */
export function endpointNameProblem(name: string): string | undefined {
  return name.trim() === OTHER_ENDPOINT
    ? `${OTHER_ENDPOINT} is where loadlab counts the endpoints past its cap of names: give another name`
    : undefined;
}
