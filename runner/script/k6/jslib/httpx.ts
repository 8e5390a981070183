/**
 * @module
 * k6's HTTP session library (jslib's httpx), served locally: a `Httpx` holds a base URL and the params every
 * request of it gets, and sends through this folder's k6/http, so its requests are the run's.
 */
import { batch as httpBatch, type Params, request as httpRequest } from "../http.ts";
import type { Body } from "../http_body.ts";

interface HttpxParams extends Params {
  baseURL?: string;
}

export class Httpx {
  baseURL: string;
  params: Params & { headers: Record<string, string>; tags: Record<string, string> };

  constructor(params: HttpxParams = {}) {
    const { baseURL = "", ...rest } = params;
    this.baseURL = baseURL;
    this.params = { ...rest, headers: { ...rest.headers }, tags: { ...rest.tags } };
  }

  setBaseUrl(url: string): void {
    this.baseURL = url;
  }
  addHeader(name: string, value: string): void {
    this.params.headers[name] = value;
  }
  addHeaders(headers: Record<string, string>): void {
    Object.assign(this.params.headers, headers);
  }
  clearHeader(name: string): void {
    delete this.params.headers[name];
  }
  addTag(name: string, value: string): void {
    this.params.tags[name] = value;
  }
  addTags(tags: Record<string, string>): void {
    Object.assign(this.params.tags, tags);
  }
  clearTag(name: string): void {
    delete this.params.tags[name];
  }

  /** `params` over the session's: headers and tags merged key by key. */
  #merged(params: Params = {}): Params {
    return {
      ...this.params,
      ...params,
      headers: { ...this.params.headers, ...params.headers },
      tags: { ...this.params.tags, ...params.tags },
    };
  }

  request(method: string, url: string, body: Body = null, params?: Params) {
    return httpRequest(method, this.baseURL + url, body, this.#merged(params));
  }
  /** Requests as `http.batch` takes them (arrays or objects), the base URL before each. */
  batch(
    requests: Array<
      [string, string, Body?, Params?] | { method: string; url: string; body?: Body; params?: Params }
    >,
    params?: Params,
  ) {
    return httpBatch(
      requests.map((r) => {
        const [method, url, body, own] = Array.isArray(r) ? r : [r.method, r.url, r.body, r.params];
        return [method, this.baseURL + url, body ?? null, this.#merged({ ...params, ...own })];
      }) as Parameters<typeof httpBatch>[0],
    );
  }
}

// get, post, put, patch, delete, head and options: `request` with the method named.
for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]) {
  Object.defineProperty(Httpx.prototype, method.toLowerCase(), {
    value(this: Httpx, url: string, body: Body = null, params?: Params) {
      return this.request(method, url, body, params);
    },
  });
}
Object.defineProperty(Httpx.prototype, "asyncRequest", { value: Httpx.prototype.request });

export default { Httpx };
