/**
 * @module
 * k6's `k6/html`: `parseHTML(text)` and `res.html()` give a jQuery-like selection, parsed by cheerio.
 */
import { type Cheerio, type CheerioAPI, load } from "cheerio/slim";
import { K6Response, setHtmlParser } from "./response.ts";
import { type Params, request } from "./http.ts";

type Nodes = Cheerio<any>;

/** One element, as k6's `each` and `get` hand it: its text, markup and attributes. */
export class Element {
  constructor(readonly selection: Selection) {}
  textContent(): string {
    return this.selection.text();
  }
  innerHTML(): string {
    return this.selection.html() ?? "";
  }
  getAttribute(name: string): string | undefined {
    return this.selection.attr(name);
  }
  hasAttribute(name: string): boolean {
    return this.selection.attr(name) !== undefined;
  }
  attributes(): Record<string, { name: string; value: string }> {
    const out: Record<string, { name: string; value: string }> = {};
    for (const [name, value] of Object.entries(this.selection.nodes.attr() ?? {})) {
      out[name] = { name, value };
    }
    return out;
  }
  nodeName(): string {
    return String(this.selection.nodes.prop("tagName") ?? "").toLowerCase();
  }
  id(): string {
    return this.selection.attr("id") ?? "";
  }
  className(): string {
    return this.selection.attr("class") ?? "";
  }
}

export class Selection {
  constructor(readonly $: CheerioAPI, readonly nodes: Nodes) {}

  #of(nodes: Nodes): Selection {
    return new Selection(this.$, nodes);
  }
  find(selector: string): Selection {
    return this.#of(this.nodes.find(selector));
  }
  text(): string {
    return this.nodes.text();
  }
  html(): string | undefined {
    return this.nodes.length === 0 ? undefined : this.nodes.html() ?? undefined;
  }
  attr(name: string, fallback?: string): string | undefined {
    return this.nodes.attr(name) ?? fallback;
  }
  val(): string | undefined {
    const v = this.nodes.val();
    return Array.isArray(v) ? v[0] : v;
  }
  /** A `data-` attribute typed as k6 types it, or all by camelCase (cheerio keeps `user-name` read, too). */
  data(key?: string): unknown {
    const all = Object.entries(this.nodes.data() ?? {}).filter(([name]) => !name.includes("-"));
    return key === undefined ? Object.fromEntries(all) : this.nodes.data(key);
  }
  size(): number {
    return this.nodes.length;
  }
  get length(): number {
    return this.nodes.length;
  }
  first(): Selection {
    return this.#of(this.nodes.first());
  }
  last(): Selection {
    return this.#of(this.nodes.last());
  }
  eq(index: number): Selection {
    return this.#of(this.nodes.eq(index));
  }
  children(selector?: string): Selection {
    return this.#of(this.nodes.children(selector));
  }
  parent(selector?: string): Selection {
    return this.#of(this.nodes.parent(selector));
  }
  filter(selector: string): Selection {
    return this.#of(this.nodes.filter(selector));
  }
  is(selector: string): boolean {
    return this.nodes.is(selector);
  }
  /** Calls `fn(index, element)` for each element (k6's order of arguments). */
  each(fn: (index: number, element: Element) => unknown): Selection {
    for (let i = 0; i < this.nodes.length; i++) fn(i, this.get(i)!);
    return this;
  }
  map<T>(fn: (index: number, selection: Selection) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.nodes.length; i++) out.push(fn(i, this.eq(i)));
    return out;
  }
  get(index: number): Element | undefined {
    return index < this.nodes.length ? new Element(this.eq(index)) : undefined;
  }
  toArray(): Selection[] {
    return this.map((_i, s) => s);
  }
}

export function parseHTML(text: string): Selection {
  const $ = load(text);
  return new Selection($, $.root());
}

type PageArgs = { selector?: string; formSelector?: string; submitSelector?: string; params?: Params };

/** The first element `selector` finds on `res`'s page, or k6's error. */
function firstOn(res: K6Response, selector: string, what: string): Selection {
  const found = (res.html(selector) as Selection).first();
  if (!found.size()) throw new Error(`no ${what} found for selector '${selector}' in response '${res.url}'`);
  return found;
}

/** k6's `res.clickLink()`: a GET of the first element `selector` finds, by its `href` on the page's URL. */
function clickLink(this: K6Response, { selector = "a[href]", params }: PageArgs = {}) {
  const href = firstOn(this, selector, "element").attr("href")!;
  return request("GET", new URL(href, this.url).href, null, params);
}

/**
 * k6's `res.submitForm()`: the form's fields as k6 v1.8.1 serializes them (a checkbox or radio only with a
 * non-empty `checked`, its value `on` by default), the submit button's and `fields` over them, sent sorted by
 * name to its action with its method (GET: in the query).
 */
function submitForm(
  this: K6Response,
  { formSelector = "form", fields = {}, submitSelector = '[type="submit"]', params }: PageArgs & {
    fields?: Record<string, string>;
  } = {},
) {
  const form = firstOn(this, formSelector, "form"), values: Record<string, string> = {};
  form.find("input[name], select[name], textarea[name]").each((_, el) => {
    const type = el.getAttribute("type")?.toLowerCase() ?? "";
    if (["submit", "button", "image", "reset", "file"].includes(type) || el.hasAttribute("disabled")) return;
    const check = type === "checkbox" || type === "radio";
    if (check && !el.attributes().checked?.value) return;
    const value = el.nodeName() === "input"
      ? el.getAttribute("value") ?? (check ? "on" : "")
      : el.selection.val();
    values[el.getAttribute("name")!] = value ?? "";
  });
  const button = form.find(submitSelector).first();
  if (button.attr("name") !== undefined) values[button.attr("name")!] = button.attr("value") ?? "";
  const sorted = new URLSearchParams({ ...values, ...fields });
  sorted.sort();
  const method = (form.attr("method") ?? "GET").toUpperCase(),
    url = new URL(form.attr("action") ?? "", this.url);
  if (method !== "GET") return request(method, url.href, Object.fromEntries(sorted), params);
  url.search = sorted.toString();
  return request("GET", url.href, null, params);
}

setHtmlParser(parseHTML);
// A response's page methods: only a script that loads this file calls them (convert.ts awaits them).
Object.assign(K6Response.prototype, { clickLink, submitForm });

export default { parseHTML };
