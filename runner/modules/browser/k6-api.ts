// k6's API where it differs from Playwright's, over the Playwright objects a script reaches (pages,
// frames, locators, element and JS handles): evaluate with any number of arguments, k6's notion of
// "editable", a touchscreen that taps without `hasTouch`, CPU and network throttling. Everything else
// passes through, and every Playwright object a call returns is seen through the same view.
import type { CDPSession, Page } from 'playwright-core';
import { GoRejection } from '../api/go-error.js';
import { networkConditions, type NetworkProfile } from './network-profiles.js';

type Fn = (...args: unknown[]) => unknown;
type Members = Record<string, unknown>;

/** The Playwright classes a script can hold, by their client class name. */
const VIEWED = new Set(['Page', 'Frame', 'Locator', 'ElementHandle', 'JSHandle', 'FrameLocator']);

const views = new WeakMap<object, object>();

/** A Playwright object's class name; its bundle spells them `_Page`, `_Locator`, `Touchscreen2`... */
function classOf(value: object): string {
  return (value.constructor?.name ?? '').replace(/^_+|\d+$/g, '');
}
const cdpSessions = new WeakMap<Page, Promise<CDPSession>>();

/** One CDP session per page, shared by the throttling, the touchscreen and the favicon watch. */
export function cdpSession(page: Page): Promise<CDPSession> {
  let s = cdpSessions.get(page);
  if (!s) {
    s = page.context().newCDPSession(page);
    cdpSessions.set(page, s);
  }
  return s;
}

/** k6 dispatches a touchStart and a touchEnd through CDP, which needs no touch-enabled context. */
export async function tapAt(page: Page, x: number, y: number): Promise<void> {
  const session = await cdpSession(page);
  await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

const NOT_A_FUNCTION = 'Given expression does not evaluate to a function';

/**
 * A stand-in page function that spreads an argument array into the script's function, whatever its
 * count: Playwright sends a function's source (its toString) and exactly one argument. As in k6, a
 * string must evaluate to a function.
 */
function spreadingFunction(fn: unknown, withTarget: boolean): Fn {
  let src = (typeof fn === 'function' ? Function.prototype.toString.call(fn) : String(fn)).trim();
  // A method shorthand (`name(a) {}`) is not an expression on its own.
  try {
    new Function(`(${src})`);
  } catch {
    src = src.startsWith('async ') ? `async function ${src.slice(6)}` : `function ${src}`;
  }
  const call = withTarget ? 'f(target, ...args)' : 'f(...args)';
  const body =
    `{ const f = (${src}); if (typeof f !== 'function') throw new Error(${JSON.stringify(NOT_A_FUNCTION)}); ` +
    `return ${call}; }`;
  const stand = () => undefined;
  stand.toString = () => (withTarget ? `(target, args) => ${body}` : `(args) => ${body}`);
  return stand;
}

/** evaluate/evaluateHandle with k6's signature: `(fn, ...args)`. */
function evaluating(target: Members, method: string, withTarget: boolean): Fn {
  const original = target[method] as Fn;
  return async (fn: unknown, ...args: unknown[]) => {
    try {
      return wrap(await original.call(target, spreadingFunction(fn, withTarget), args));
    } catch (err) {
      if (err instanceof Error && err.message.includes(NOT_A_FUNCTION))
        throw new Error(`evaluating JS: ${NOT_A_FUNCTION}`, { cause: err });
      throw err;
    }
  };
}

interface WaitForFunctionOptions {
  timeout?: number;
  polling?: 'raf' | 'mutation' | number;
}

/**
 * k6's `waitForFunction(fn, options, ...args)` (Playwright's is `(fn, arg, options)`); a string is an
 * expression to wait on. It resolves to null in k6 v1.3 (measured), not to a handle. Playwright has
 * no `mutation` polling: `raf` (every frame) sees the same changes.
 */
function waitingForFunction(target: Members): Fn {
  const original = target.waitForFunction as Fn;
  return async (fn: unknown, rawOptions?: unknown, ...args: unknown[]) => {
    const options = (rawOptions ?? {}) as WaitForFunctionOptions;
    const pageFunction = typeof fn === 'function' ? fn : `() => (${String(fn)})`;
    const polling = options.polling === 'mutation' ? 'raf' : options.polling;
    const handle = (await original.call(target, spreadingFunction(pageFunction, false), args, {
      timeout: options.timeout,
      polling,
    })) as { dispose(): Promise<void> };
    await handle.dispose().catch(() => {});
    return null;
  };
}

/**
 * k6's "editable" (its injected script): not disabled, and no `readonly` on an input, textarea or
 * select; a label stands for its control. Built from source text so no transpiler output reaches
 * the page.
 */
const EDITABLE = new Function(
  'el',
  `const e = (el.nodeName === 'LABEL' && el.control) || el;
  const disabled = ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA'].includes(e.nodeName) && e.hasAttribute('disabled');
  const readonly = ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.nodeName) && e.hasAttribute('readonly');
  return !disabled && !readonly;`,
);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface TapOptions {
  position?: { x: number; y: number };
  timeout?: number;
  force?: boolean;
  trial?: boolean;
}
interface Tappable {
  click(o: object): Promise<void>;
  boundingBox(): Promise<Box | null>;
}

/** Waits for the element as a click would (visible, stable, enabled, scrolled into view), then taps it. */
async function tapElement(page: Page, el: Tappable, options: TapOptions = {}): Promise<void> {
  const { position, timeout, force, trial } = options;
  await el.click({ trial: true, timeout, force, position });
  if (trial) return;
  const box = await el.boundingBox();
  if (!box) throw new Error('tapping element: element is not visible');
  const x = box.x + (position ? position.x : box.width / 2);
  const y = box.y + (position ? position.y : box.height / 2);
  await tapAt(page, x, y);
}

/** The page a page, frame or locator belongs to. */
function pageOf(target: Members, kind: string): Page {
  return kind === 'Page' ? (target as unknown as Page) : (target as unknown as { page(): Page }).page();
}

/**
 * A navigation the network failed, as k6 rejects it: its Go error, `navigating frame to "<url>":
 * net::ERR_…`, where Playwright's error names its method, the URL again and a call log.
 */
function navigationFailure(error: unknown, url: unknown): unknown {
  const code =
    error instanceof Error
      ? /^(?:page|frame)\.goto: (net::ERR_[A-Z0-9_]+)/.exec(error.message)?.[1]
      : undefined;
  return code ? new GoRejection(`navigating frame to ${JSON.stringify(String(url))}: ${code}`) : error;
}

/** The members k6 defines differently, for one Playwright object of the given class. */
function k6Members(target: Members, kind: string): Members {
  const out: Members = {};
  if (kind === 'Page' || kind === 'Frame') {
    const goto = target.goto as Fn;
    out.goto = (url: unknown, options?: unknown) =>
      (goto.call(target, url, options) as Promise<unknown>).then(wrap, (error: unknown) => {
        throw navigationFailure(error, url);
      });
    out.evaluate = evaluating(target, 'evaluate', false);
    out.evaluateHandle = evaluating(target, 'evaluateHandle', false);
    out.waitForFunction = waitingForFunction(target);
    const locator = (selector: string) => (target.locator as Fn).call(target, selector) as Members;
    out.isEditable = (selector: string, o?: { timeout?: number }) => {
      const loc = locator(selector);
      return (loc.evaluate as Fn).call(loc, EDITABLE, undefined, o);
    };
    out.tap = (selector: string, o?: TapOptions) =>
      tapElement(pageOf(target, kind), locator(selector) as unknown as Tappable, o);
  }
  if (kind === 'Locator' || kind === 'ElementHandle' || kind === 'JSHandle') {
    out.evaluate = evaluating(target, 'evaluate', true);
    out.evaluateHandle = evaluating(target, 'evaluateHandle', true);
  }
  if (kind === 'JSHandle') {
    // k6's JSHandle.jsonValue() resolves to the value's JSON text, not the value.
    out.jsonValue = async () => JSON.stringify(await (target.jsonValue as Fn).call(target));
  }
  if (kind === 'Locator' || kind === 'ElementHandle') {
    const evaluate = target.evaluate as Fn;
    out.isEditable = (o?: { timeout?: number }) =>
      kind === 'Locator' ? evaluate.call(target, EDITABLE, undefined, o) : evaluate.call(target, EDITABLE);
  }
  if (kind === 'Locator') {
    out.tap = (o?: TapOptions) => tapElement(pageOf(target, kind), target as unknown as Tappable, o);
  }
  if (kind === 'ElementHandle') {
    out.tap = async (o?: TapOptions) => {
      const frame = await (target.ownerFrame as () => Promise<{ page(): Page } | null>)();
      if (!frame) throw new Error('tapping element: element is not attached to a frame');
      await tapElement(frame.page(), target as unknown as Tappable, o);
    };
  }
  if (kind === 'Page') {
    const page = target as unknown as Page;
    out.touchscreen = { tap: (x: number, y: number) => tapAt(page, x, y) };
    out.throttleCPU = async (profile: { rate?: unknown }) => {
      const rate = Number(profile?.rate);
      if (!Number.isFinite(rate) || rate < 1) throw new Error('throttling CPU: rate must be a number >= 1');
      await (await cdpSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
      return null;
    };
    out.throttleNetwork = async (profile: Partial<NetworkProfile>) => {
      await (await cdpSession(page)).send('Network.emulateNetworkConditions', networkConditions(profile));
      return null;
    };
  }
  return out;
}

/** A Playwright object seen through k6's API; `extra` members (the page's own k6 wrapping) come first. */
export function k6View<T extends object>(target: T, extra: Members = {}): T {
  const cached = views.get(target);
  if (cached && Object.keys(extra).length === 0) return cached as T;
  const kind = classOf(target);
  let own: Members | undefined;
  const view = new Proxy(target, {
    get(t, prop, receiver) {
      if (typeof prop === 'string') {
        if (prop in extra) return extra[prop];
        own ??= k6Members(t as Members, kind);
        if (prop in own) return own[prop];
      }
      const v = Reflect.get(t, prop, receiver) as unknown;
      if (typeof v !== 'function' || prop === 'constructor') return v;
      return (...args: unknown[]) => wrap((v as Fn).apply(t, args));
    },
  });
  views.set(target, view);
  return view;
}

/** Wraps what a call returned: Playwright objects (also inside promises and arrays) get k6's view. */
function wrap(value: unknown): unknown {
  if (value instanceof Promise) return value.then(wrap);
  if (Array.isArray(value)) return value.map(wrap);
  if (value && typeof value === 'object' && VIEWED.has(classOf(value))) return k6View(value);
  return value;
}
