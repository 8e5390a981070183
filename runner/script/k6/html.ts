/**
 * @module
 * k6's `k6/html`: `parseHTML(text)` and `res.html()` give a jQuery-like selection, parsed by cheerio.
 */
import { type Cheerio, type CheerioAPI, load } from "cheerio/slim";
import { K6Response, setHtmlParser } from "./response.ts";
import { type Params, request } from "./http.ts";

type Nodes = Cheerio<any>;

/** One element, as k6's `each` and `get` hand it: its methods are `ELEMENT`'s, read from its selection. */
export class Element {
  constructor(readonly selection: Selection) {}
}

const KINDS: Record<string, number> = { tag: 1, script: 1, style: 1, text: 3, comment: 8, root: 9 };
const one = (s: Selection, found: Nodes) =>
  found.length > 0 ? new Element(new Selection(s.$, found)) : undefined;
const all = (found: Selection) => found.map((_i, e) => new Element(e));

/** k6's Element methods (the DOM's names), each given the element's selection and the call's argument. */
const ELEMENT: Record<string, (s: Selection, arg: string) => unknown> = {
  textContent: (s) => s.text(),
  innerHTML: (s) => s.html() ?? "",
  getAttribute: (s, name) => s.attr(name),
  hasAttribute: (s, name) => s.attr(name) !== undefined,
  attributes: (s) =>
    Object.fromEntries(Object.entries(s.nodes.attr() ?? {}).map(([n, value]) => [n, { name: n, value }])),
  nodeName: (s) =>
    s.nodes[0]?.type === "root"
      ? "#document"
      : String(s.nodes.prop("tagName") ?? `#${s.nodes[0]?.type}`).toLowerCase(),
  nodeType: (s) => KINDS[s.nodes[0]?.type],
  id: (s) => s.attr("id") ?? "",
  className: (s) => s.attr("class") ?? "",
  classList: (s) => (s.attr("class") ?? "").split(/\s+/).filter((c) => c !== ""),
  hasChildNodes: (s) => s.nodes.contents().length > 0,
  children: (s) => all(s.find("> *")),
  childElementCount: (s) => s.nodes.children().length,
  querySelectorAll: (s, selector) => all(s.find(selector)),
  getElementsByTagName: (s, name) => all(s.find(name)),
  getElementsByClassName: (s, name) => all(s.find(`.${name}`)),
  matches: (s, selector) => s.is(selector),
  // k6 v1.8.1 answers false for any element given (its test of the argument's type never matches).
  contains: () => false,
  querySelector: (s, selector) => one(s, s.nodes.find(selector).first()),
  parentElement: (s) => one(s, s.nodes.parent()),
  parentNode: (s) => one(s, s.nodes.parent()),
  ownerDocument: (s) => one(s, s.$.root()),
  firstElementChild: (s) => one(s, s.nodes.children().first()),
  lastElementChild: (s) => one(s, s.nodes.children().last()),
  previousElementSibling: (s) => one(s, s.nodes.prev()),
  nextElementSibling: (s) => one(s, s.nodes.next()),
};
for (const [name, read] of Object.entries(ELEMENT)) {
  Object.defineProperty(Element.prototype, name, {
    value(this: Element, arg: string) {
      return read(this.selection, arg);
    },
  });
}

const SUBMITTABLE = "input,select,textarea,keygen";
const UNSENT = ["submit", "button", "reset", "image", "file"];

/** k6's Selection: its traversals are `TRAVERSALS`, the rest its methods. */
export class Selection {
  declare readonly find: (selector: string) => Selection;
  declare readonly first: () => Selection;
  declare readonly eq: (index: number) => Selection;
  constructor(readonly $: CheerioAPI, readonly nodes: Nodes) {}

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
  is(selector: string): boolean {
    return this.nodes.is(selector);
  }
  /** By a selector, a Selection, or `fn(index, selection)`: k6 hands `fn` goquery's own selection. */
  filter(by: string | Selection | ((index: number, s: GoSelection) => unknown)): Selection {
    if (typeof by !== "function") {
      return new Selection(this.$, this.nodes.filter(by instanceof Selection ? by.nodes : by));
    }
    const nodes = this.nodes, $ = this.$;
    return new Selection($, nodes.filter((i) => Boolean(by(i, new GoSelection($, nodes.eq(i))))));
  }
  /** Calls `fn(index, element)` for each element (k6's order of arguments). */
  each(fn: (index: number, element: Element) => unknown): Selection {
    for (let i = 0; i < this.nodes.length; i++) fn(i, this.get(i) as Element);
    return this;
  }
  /** `fn`'s value for each element; one whose `fn` throws is left out, its error dropped (as k6's). */
  map<T>(fn: (index: number, selection: Selection) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.nodes.length; i++) {
      try {
        out.push(fn(i, this.eq(i)));
      } catch { /* left out */ }
    }
    return out;
  }
  /** The element at `index`, or with none given every element (k6's `get()`). */
  get(index?: number): Element | Element[] | undefined {
    if (index === undefined) return all(this);
    return index < this.nodes.length ? new Element(this.eq(index)) : undefined;
  }
  /** The first element's place among its siblings, or among what `selector` finds; -1 if none (goquery). */
  index(selector?: string | Selection): number {
    return this.nodes.index(selector instanceof Selection ? selector.nodes : selector);
  }
  toArray(): Selection[] {
    return this.map((_i, s) => s);
  }
  /**
   * A form's (or these fields') values as k6 v1.8.1 gives them: fields with a name, not of a button or file
   * type, a checkbox or radio only when `checked="checked"`, a disabled one unless `disabled="disabled"`.
   */
  serializeArray(): Array<{ name: string; value: unknown }> {
    const fields = this.nodes.is("form") ? this.find(SUBMITTABLE) : this.filter(SUBMITTABLE);
    return fields.map((_i, f) => ({ f, type: f.attr("type") ?? "", name: f.attr("name") ?? "" }))
      .filter(({ f, type, name }) =>
        name !== "" && f.nodes.attr()?.disabled !== "disabled" && !UNSENT.includes(type) &&
        (f.nodes.attr()?.checked === "checked" || (type !== "checkbox" && type !== "radio"))
      ).map(({ f, name }) => ({ name, value: f.val() }));
  }
  serializeObject(): Record<string, unknown> {
    return Object.fromEntries(this.serializeArray().map(({ name, value }) => [name, value]));
  }
  /** The fields as a query, sorted by name as Go's `url.Values` encodes them. */
  serialize(): string {
    const query = new URLSearchParams(this.serializeArray().map(({ name, value }) => [name, String(value)]));
    query.sort();
    return query.toString();
  }
}

/** goquery's Selection as k6 hands it to `filter(fn)`: its `attr` the pair (value, found), `hasClass`. */
class GoSelection extends Selection {
  override attr(name: string): never {
    const value = this.nodes.attr(name);
    return [value ?? "", value !== undefined] as never;
  }
  hasClass(name: string): boolean {
    return this.nodes.hasClass(name);
  }
}

/** k6's Selection traversals named as cheerio's: each takes a selector (or a Selection) and gives one. */
const TRAVERSALS = ("find first last eq children parent closest has not next nextAll nextUntil prev " +
  "prevAll prevUntil parents parentsUntil siblings contents slice add end").split(" ");
for (const name of TRAVERSALS) {
  Object.defineProperty(Selection.prototype, name, {
    value(this: Selection, ...args: unknown[]) {
      const nodes = this.nodes as unknown as Record<string, (...a: unknown[]) => Nodes>;
      return new Selection(this.$, nodes[name](...args.map((a) => a instanceof Selection ? a.nodes : a)));
    },
  });
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

/** k6's `res.submitForm()`: the form's fields as k6 v1.8.1 sends them, `fields` over them, to its action. */
function submitForm(
  this: K6Response,
  { formSelector = "form", fields = {}, submitSelector = '[type="submit"]', params }: PageArgs & {
    fields?: Record<string, string>;
  } = {},
) {
  const form = firstOn(this, formSelector, "form"), values: Record<string, string> = {};
  form.find("input[name], select[name], textarea[name]").map((_, f) => {
    const type = f.attr("type")?.toLowerCase() ?? "", raw = f.nodes.attr() ?? {};
    if (UNSENT.includes(type) || f.attr("disabled") !== undefined) return;
    const check = type === "checkbox" || type === "radio";
    if (check && !raw.checked) return;
    const value = f.is("input") ? raw.value ?? (check ? "on" : "") : f.val();
    values[raw.name] = value ?? "";
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
