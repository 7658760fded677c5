// `k6/html` (parseHTML) and Response.html(): k6's jQuery-like Selection and its Element, on cheerio
// (a maintained jQuery-style API over parse5, an HTML5-conformant parser as Go's x/net/html that k6
// uses through goquery is). cheerio is loaded on first use only: VUs of scripts that never parse
// HTML do not pay for it. Where k6 differs from jQuery, the k6 behaviour is kept, each one checked
// against real k6 by fixtures/html.js (html.test.ts).
import { createRequire } from 'node:module';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element as DomElement } from 'domhandler';
import { goInnerHtml } from './go-html-render.js';
import { goQueryEscape } from '../api/go-values.js';

/** cheerio's absolute path, written into the worker bundle by worker-code.ts (the bundle has no module URL). */
declare const __LOADLAB_CHEERIO__: string | undefined;

type Load = CheerioAPI['load'];
let loadCheerio: Load | undefined;

function cheerioLoad(): Load {
  if (!loadCheerio) {
    const bundled = typeof __LOADLAB_CHEERIO__ === 'string' ? __LOADLAB_CHEERIO__ : undefined;
    const req = createRequire(bundled ?? import.meta.url);
    loadCheerio = (req(bundled ?? 'cheerio') as { load: Load }).load;
  }
  return loadCheerio;
}

type Nodes = Cheerio<AnyNode>;
type Callback = (index: number, item: unknown) => unknown;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const COMMENT_NODE = 8;
const DOCUMENT_NODE = 9;

function isElement(n: AnyNode | null | undefined): n is DomElement {
  return !!n && (n.type === 'tag' || n.type === 'script' || n.type === 'style');
}

/** What serializeArray sends: k6's rule (a checkbox or radio only with checked="checked", disabled kept). */
function submittable($: CheerioAPI, n: AnyNode): boolean {
  if (!isElement(n)) return false;
  const attr = (k: string) => n.attribs[k] ?? '';
  const type = attr('type');
  return (
    attr('name') !== '' &&
    attr('disabled') !== 'disabled' &&
    !['submit', 'button', 'reset', 'image', 'file'].includes(type) &&
    (attr('checked') === 'checked' || (type !== 'checkbox' && type !== 'radio')) &&
    $(n).is('input,select,textarea,keygen')
  );
}

/** A form control's value as k6's val() reads it. */
function valueOf($: CheerioAPI, n: AnyNode): string | string[] | undefined {
  if (!isElement(n)) return undefined;
  const sel = $(n);
  switch (n.name) {
    case 'input': {
      const v = n.attribs.value;
      if (v !== undefined) return v;
      const type = n.attribs.type;
      return type === 'checkbox' || type === 'radio' ? 'on' : '';
    }
    case 'textarea':
      return sel.text();
    case 'select': {
      const options = sel.find('option[selected]');
      const values = options
        .toArray()
        .map((o) => (isElement(o) && o.attribs.value !== undefined ? o.attribs.value : $(o).text()));
      if (n.attribs.multiple !== undefined) return values;
      if (values.length > 0) return values[0];
      const first = sel.find('option').first();
      return first.length ? (first.attr('value') ?? first.text()) : undefined;
    }
    case 'option':
      return n.attribs.value ?? sel.text();
    default:
      return n.attribs.value;
  }
}

/** k6's Element (Selection.get, each): DOM-like methods over one node. */
export class HtmlElement {
  // Private fields: JSON.stringify and Object.keys see only k6's methods.
  readonly #$: CheerioAPI;
  readonly #node: AnyNode;
  readonly #url: string;
  constructor($: CheerioAPI, node: AnyNode, url: string) {
    this.#$ = $;
    this.#node = node;
    this.#url = url;
    const self = this as unknown as Record<string, unknown>;
    // Methods are own enumerable properties, as Object.keys shows them on k6's Element.
    for (const name of ELEMENT_METHODS)
      self[name] = (ELEMENT_IMPL[name] as (...a: unknown[]) => unknown).bind(this);
  }
  /** The node under an Element, for Selection methods that take one. */
  static nodeOf(e: HtmlElement): AnyNode {
    return e.#node;
  }
  #wrap(n: AnyNode | null | undefined): HtmlElement | undefined {
    return n ? new HtmlElement(this.#$, n, this.#url) : undefined;
  }
  #attribs(): Record<string, string> {
    return isElement(this.#node) ? this.#node.attribs : {};
  }
  #childList(elementsOnly: boolean): AnyNode[] {
    const kids = 'children' in this.#node ? (this.#node.children as AnyNode[]) : [];
    return elementsOnly ? kids.filter(isElement) : kids;
  }
  #sibling(step: 1 | -1, elementsOnly: boolean): HtmlElement | undefined {
    let n: AnyNode | null = step === 1 ? this.#node.next : this.#node.prev;
    while (n && elementsOnly && !isElement(n)) n = step === 1 ? n.next : n.prev;
    return this.#wrap(n);
  }
  static readonly impl = {
    selection(this: HtmlElement): Selection {
      return new Selection(this.#$, this.#$(this.#node), this.#url);
    },
    nodeName(this: HtmlElement): string {
      const n = this.#node;
      if (isElement(n)) return n.name;
      return n.type === 'text'
        ? '#text'
        : n.type === 'comment'
          ? '#comment'
          : n.type === 'root'
            ? '#document'
            : n.type;
    },
    nodeType(this: HtmlElement): number {
      const t = this.#node.type;
      return isElement(this.#node)
        ? ELEMENT_NODE
        : t === 'text'
          ? TEXT_NODE
          : t === 'comment'
            ? COMMENT_NODE
            : t === 'root'
              ? DOCUMENT_NODE
              : 0;
    },
    nodeValue(this: HtmlElement): string | undefined {
      // Text and comments only: cheerio keeps an element's data() cache in its `data` too.
      const n = this.#node;
      return n.type === 'text' || n.type === 'comment' ? n.data : undefined;
    },
    id(this: HtmlElement): string {
      return this.#attribs().id ?? '';
    },
    innerHTML(this: HtmlElement): string {
      return goInnerHtml(this.#node);
    },
    textContent(this: HtmlElement): string {
      return this.#$(this.#node).text();
    },
    ownerDocument(this: HtmlElement): HtmlElement | undefined {
      let n: AnyNode = this.#node;
      while (n.parent) n = n.parent;
      return this.#wrap(n);
    },
    attributes(
      this: HtmlElement,
    ): Record<string, { owner_element: HtmlElement; name: string; value: string }> {
      const out: Record<string, { owner_element: HtmlElement; name: string; value: string }> = {};
      for (const [name, value] of Object.entries(this.#attribs()))
        out[name] = { owner_element: this, name, value };
      return out;
    },
    firstChild(this: HtmlElement) {
      return this.#wrap(this.#childList(false)[0]);
    },
    lastChild(this: HtmlElement) {
      return this.#wrap(this.#childList(false).at(-1));
    },
    childElementCount(this: HtmlElement): number {
      return this.#childList(true).length;
    },
    firstElementChild(this: HtmlElement) {
      return this.#wrap(this.#childList(true)[0]);
    },
    lastElementChild(this: HtmlElement) {
      return this.#wrap(this.#childList(true).at(-1));
    },
    previousSibling(this: HtmlElement) {
      return this.#sibling(-1, false);
    },
    nextSibling(this: HtmlElement) {
      return this.#sibling(1, false);
    },
    previousElementSibling(this: HtmlElement) {
      return this.#sibling(-1, true);
    },
    nextElementSibling(this: HtmlElement) {
      return this.#sibling(1, true);
    },
    parentElement(this: HtmlElement) {
      return isElement(this.#node.parent) ? this.#wrap(this.#node.parent) : undefined;
    },
    parentNode(this: HtmlElement) {
      return this.#wrap(this.#node.parent);
    },
    childNodes(this: HtmlElement): HtmlElement[] {
      return this.#childList(false).map((n) => new HtmlElement(this.#$, n, this.#url));
    },
    children(this: HtmlElement): HtmlElement[] {
      return this.#childList(true).map((n) => new HtmlElement(this.#$, n, this.#url));
    },
    classList(this: HtmlElement): string[] {
      return (this.#attribs().class ?? '').split(/\s+/).filter(Boolean);
    },
    className(this: HtmlElement): string | undefined {
      return this.#attribs().class;
    },
    lang(this: HtmlElement): string | undefined {
      return this.#attribs().lang;
    },
    toString(this: HtmlElement): string {
      return isElement(this.#node)
        ? '[object html.Node]'
        : `[object ${HtmlElement.impl.nodeName.call(this)}]`;
    },
    hasAttribute(this: HtmlElement, name: unknown): boolean {
      return this.#attribs()[String(name)] !== undefined;
    },
    getAttribute(this: HtmlElement, name: unknown): string | undefined {
      return this.#attribs()[String(name)];
    },
    getAttributeNode(this: HtmlElement, name: unknown) {
      const value = this.#attribs()[String(name)];
      return value === undefined ? undefined : { owner_element: this, name: String(name), value };
    },
    hasAttributes(this: HtmlElement): boolean {
      return Object.keys(this.#attribs()).length > 0;
    },
    hasChildNodes(this: HtmlElement): boolean {
      return this.#childList(false).length > 0;
    },
    isSameNode(this: HtmlElement, other: unknown): boolean {
      return other instanceof HtmlElement && other.#node === this.#node;
    },
    isEqualNode(this: HtmlElement, other: unknown): boolean {
      return other instanceof HtmlElement && this.#$.html(other.#node) === this.#$.html(this.#node);
    },
    getElementsByClassName(this: HtmlElement, name: unknown): HtmlElement[] {
      return this.#queryAll(`.${String(name)}`);
    },
    getElementsByTagName(this: HtmlElement, name: unknown): HtmlElement[] {
      return this.#queryAll(String(name));
    },
    querySelector(this: HtmlElement, selector: unknown): HtmlElement | undefined {
      return this.#queryAll(String(selector))[0];
    },
    querySelectorAll(this: HtmlElement, selector: unknown): HtmlElement[] {
      return this.#queryAll(String(selector));
    },
    contains(this: HtmlElement, other: unknown): boolean {
      if (!(other instanceof HtmlElement)) return false;
      for (let n: AnyNode | null = other.#node.parent; n; n = n.parent) if (n === this.#node) return true;
      return false;
    },
    matches(this: HtmlElement, selector: unknown): boolean {
      return this.#$(this.#node).is(String(selector));
    },
    namespaceURI(this: HtmlElement): string | undefined {
      return isElement(this.#node) ? (this.#node.namespace ?? 'http://www.w3.org/1999/xhtml') : undefined;
    },
    isDefaultNamespace(this: HtmlElement, uri: unknown): boolean {
      return String(uri) === 'http://www.w3.org/1999/xhtml';
    },
    value(this: HtmlElement): string | string[] | undefined {
      return valueOf(this.#$, this.#node);
    },
    type(this: HtmlElement): string | undefined {
      return this.#attribs().type;
    },
    element(this: HtmlElement): HtmlElement {
      return this;
    },
  };
  #queryAll(selector: string): HtmlElement[] {
    return this.#$(this.#node)
      .find(selector)
      .toArray()
      .map((n) => new HtmlElement(this.#$, n, this.#url));
  }
}
const ELEMENT_IMPL = HtmlElement.impl as Record<string, unknown>;
const ELEMENT_METHODS = Object.keys(ELEMENT_IMPL);

/** A Selection's index argument: a negative one counts from the end, as in goquery. */
function at(length: number, i: unknown): number {
  const n = Math.trunc(Number(i));
  return n < 0 ? length + n : n;
}

/** k6's Selection: jQuery's traversal and reading methods, each returning a Selection or a value. */
export class Selection {
  declare url: string;
  /** Typed for Response.html(selector); set in the constructor with the other methods. */
  declare find: (selector: unknown) => Selection;
  readonly #$: CheerioAPI;
  readonly #nodes: Nodes;
  readonly #previous: Selection | undefined;
  constructor($: CheerioAPI, nodes: Nodes, url: string, previous?: Selection) {
    this.#$ = $;
    this.#nodes = nodes;
    this.#previous = previous;
    const self = this as unknown as Record<string, unknown>;
    // Own enumerable methods, as Object.keys shows them on k6's Selection (`url` among them).
    for (const name of SELECTION_METHODS) {
      self[name] = (SELECTION_IMPL[name] as (...a: unknown[]) => unknown).bind(this);
    }
    this.url = url;
  }
  #derive(nodes: Nodes): Selection {
    return new Selection(this.#$, nodes, this.url, this);
  }
  #element(n: AnyNode | undefined): HtmlElement | undefined {
    return n ? new HtmlElement(this.#$, n, this.url) : undefined;
  }
  /** A selector string, a Selection or an Element, as k6's filter-like methods take. */
  #matcher(v: unknown): string | AnyNode | AnyNode[] {
    if (v instanceof Selection) return v.#nodes.toArray();
    if (v instanceof HtmlElement) return HtmlElement.nodeOf(v);
    return String(v);
  }
  #predicate(v: unknown): string | ((i: number, n: AnyNode) => boolean) | AnyNode | AnyNode[] {
    if (typeof v === 'function') {
      return (i: number, n: AnyNode) =>
        Boolean((v as Callback)(i, new Selection(this.#$, this.#$(n), this.url)));
    }
    return this.#matcher(v);
  }
  static readonly impl = {
    add(this: Selection, v: unknown): Selection {
      return this.#derive(this.#nodes.add(this.#matcher(v) as string));
    },
    attr(this: Selection, name: unknown, fallback?: unknown): unknown {
      const v = this.#nodes.attr(String(name));
      return v === undefined ? fallback : v;
    },
    children(this: Selection, selector?: unknown): Selection {
      return this.#derive(
        selector === undefined ? this.#nodes.children() : this.#nodes.children(String(selector)),
      );
    },
    closest(this: Selection, selector: unknown): Selection {
      return this.#derive(this.#nodes.closest(this.#matcher(selector) as string));
    },
    contents(this: Selection): Selection {
      return this.#derive(this.#nodes.contents());
    },
    data(this: Selection, key?: unknown): unknown {
      if (this.#nodes.length === 0) return undefined;
      if (key === undefined) return this.#nodes.data();
      // k6 accepts the attribute's own spelling (long-name) as well as jQuery's (longName).
      const name = String(key).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
      return this.#nodes.data(name);
    },
    each(this: Selection, fn: unknown): Selection {
      if (typeof fn !== 'function') throw new TypeError('The argument to each() must be a function.');
      this.#nodes.toArray().forEach((n, i) => (fn as Callback)(i, this.#element(n)));
      return this;
    },
    end(this: Selection): Selection {
      return this.#previous ?? this.#derive(this.#$([]));
    },
    eq(this: Selection, i: unknown): Selection {
      return this.#derive(this.#nodes.eq(at(this.#nodes.length, i)));
    },
    filter(this: Selection, v: unknown): Selection {
      return this.#derive(this.#nodes.filter(this.#predicate(v) as string));
    },
    find(this: Selection, selector: unknown): Selection {
      return this.#derive(this.#nodes.find(String(selector)));
    },
    first(this: Selection): Selection {
      return this.#derive(this.#nodes.first());
    },
    get(this: Selection, i?: unknown): HtmlElement | HtmlElement[] | undefined {
      if (i === undefined) return this.#nodes.toArray().map((n) => new HtmlElement(this.#$, n, this.url));
      return this.#element(this.#nodes.get(at(this.#nodes.length, i)));
    },
    has(this: Selection, selector: unknown): Selection {
      return this.#derive(this.#nodes.has(this.#matcher(selector) as string));
    },
    html(this: Selection): string | undefined {
      const first = this.#nodes.get(0);
      return first ? goInnerHtml(first) : '';
    },
    index(this: Selection, v?: unknown): number {
      return v === undefined ? this.#nodes.index() : this.#nodes.index(this.#matcher(v) as string);
    },
    is(this: Selection, v: unknown): boolean {
      return this.#nodes.is(this.#predicate(v) as string);
    },
    last(this: Selection): Selection {
      return this.#derive(this.#nodes.last());
    },
    map(this: Selection, fn: unknown): unknown[] {
      if (typeof fn !== 'function') throw new TypeError('The argument to map() must be a function.');
      return this.#nodes
        .toArray()
        .map((n, i) => (fn as Callback)(i, new Selection(this.#$, this.#$(n), this.url)));
    },
    next(this: Selection, selector?: unknown): Selection {
      return this.#derive(selector === undefined ? this.#nodes.next() : this.#nodes.next(String(selector)));
    },
    nextAll(this: Selection, selector?: unknown): Selection {
      return this.#derive(
        selector === undefined ? this.#nodes.nextAll() : this.#nodes.nextAll(String(selector)),
      );
    },
    nextUntil(this: Selection, until?: unknown, filter?: unknown): Selection {
      return this.#derive(
        this.#nodes.nextUntil(
          until === undefined ? null : (this.#matcher(until) as string),
          filter as string,
        ),
      );
    },
    not(this: Selection, v: unknown): Selection {
      return this.#derive(this.#nodes.not(this.#predicate(v) as string));
    },
    parent(this: Selection, selector?: unknown): Selection {
      return this.#derive(
        selector === undefined ? this.#nodes.parent() : this.#nodes.parent(String(selector)),
      );
    },
    parents(this: Selection, selector?: unknown): Selection {
      return this.#derive(
        selector === undefined ? this.#nodes.parents() : this.#nodes.parents(String(selector)),
      );
    },
    parentsUntil(this: Selection, until?: unknown, filter?: unknown): Selection {
      return this.#derive(
        this.#nodes.parentsUntil(
          until === undefined ? null : (this.#matcher(until) as string),
          filter as string,
        ),
      );
    },
    prev(this: Selection, selector?: unknown): Selection {
      return this.#derive(selector === undefined ? this.#nodes.prev() : this.#nodes.prev(String(selector)));
    },
    prevAll(this: Selection, selector?: unknown): Selection {
      return this.#derive(
        selector === undefined ? this.#nodes.prevAll() : this.#nodes.prevAll(String(selector)),
      );
    },
    prevUntil(this: Selection, until?: unknown, filter?: unknown): Selection {
      return this.#derive(
        this.#nodes.prevUntil(
          until === undefined ? null : (this.#matcher(until) as string),
          filter as string,
        ),
      );
    },
    serialize(this: Selection): string {
      const parts: string[] = [];
      const pairs = Selection.impl.serializeArray.call(this);
      const sorted = [...pairs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const { name, value } of sorted) {
        for (const v of Array.isArray(value) ? value : [value])
          parts.push(`${goQueryEscape(name)}=${goQueryEscape(v)}`);
      }
      return parts.join('&');
    },
    serializeArray(this: Selection): { name: string; value: string | string[] }[] {
      const controls = this.#nodes.is('form') ? this.#nodes.find('*') : this.#nodes;
      return controls
        .toArray()
        .filter((n) => submittable(this.#$, n))
        .map((n) => ({ name: (n as DomElement).attribs.name!, value: valueOf(this.#$, n) ?? '' }));
    },
    serializeObject(this: Selection): Record<string, string | string[]> {
      const out: Record<string, string | string[]> = {};
      for (const { name, value } of Selection.impl.serializeArray.call(this)) out[name] = value;
      return out;
    },
    siblings(this: Selection, selector?: unknown): Selection {
      return this.#derive(
        selector === undefined ? this.#nodes.siblings() : this.#nodes.siblings(String(selector)),
      );
    },
    size(this: Selection): number {
      return this.#nodes.length;
    },
    slice(this: Selection, start: unknown, end?: unknown): Selection {
      const n = this.#nodes.length;
      return this.#derive(this.#nodes.slice(at(n, start), end === undefined ? undefined : at(n, end)));
    },
    text(this: Selection): string {
      return this.#nodes.text();
    },
    /** One Selection per node, as in k6 (get() gives Elements). */
    toArray(this: Selection): Selection[] {
      return this.#nodes.toArray().map((n) => new Selection(this.#$, this.#$(n), this.url));
    },
    val(this: Selection): string | string[] | undefined {
      const first = this.#nodes.get(0);
      return first ? valueOf(this.#$, first) : undefined;
    },
  };
}
const SELECTION_IMPL = Selection.impl as Record<string, unknown>;
const SELECTION_METHODS = Object.keys(SELECTION_IMPL);

/** parseHTML(html): the document as a Selection. */
export function parseHTML(html: unknown, url = ''): Selection {
  const $ = cheerioLoad()(String(html ?? ''));
  return new Selection($, $.root(), url);
}

export function createHtmlModule(): Record<string, unknown> {
  return { parseHTML: (html: unknown) => parseHTML(html) };
}
