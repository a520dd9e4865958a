import { transferableAbortController } from 'node:util';

// What antd needs from a browser that jsdom lacks or does noisily; imported
// before anything that loads antd.

// Ant Design reads matchMedia, which jsdom lacks.
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// jsdom has no ResizeObserver; antd's Tabs and Menu measure with it. A no-op
// observer is enough: jsdom does no layout, so nothing would ever resize.
if (typeof window !== 'undefined' && !('ResizeObserver' in window)) {
  class NoLayoutResizeObserver {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: NoLayoutResizeObserver });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: NoLayoutResizeObserver });
}

// jsdom's getComputedStyle matches every rule of every stylesheet on each call, and antd's CSS-in-JS
// injects thousands of rules: testing-library asks for the style of each ancestor on every role query
// and every click, which made three quarters of the console tests' time. It also lacks pseudo-elements
// (antd measures the scrollbar with "::-webkit-scrollbar") and prints a stack trace when asked for one.
// Answer from what decides visibility without a cascade: the inline style (visibility inherited), `hidden`
// attribute, and antd's one convention for hiding by class (a `*-hidden` class antd styles is
// `display: none` on the element, see antd/es/*/style; the form label's required-mark-hidden hides
// only its ::before). A hidden dropdown, tab pane or popover stays hidden to the tests, so a query
// cannot find an element a user could not see.
const HIDDEN_CLASS = /(^|\s)ant-(?!form-item-required-mark)[\w-]+-hidden(\s|$)/;
if (typeof window !== 'undefined') {
  window.getComputedStyle = (element: Element) => {
    const computed = document.createElement('div').style;
    const own = (element as HTMLElement).style;
    if (own) computed.cssText = own.cssText;
    if ((element as HTMLElement).hidden || HIDDEN_CLASS.test(element.getAttribute('class') ?? ''))
      computed.display = 'none';
    // visibility is inherited: the nearest ancestor that sets it decides.
    for (let node = element.parentElement; !computed.visibility && node; node = node.parentElement)
      computed.visibility = node.style?.visibility ?? '';
    return computed;
  };
}

// jsdom draws nothing without the native "canvas" package, which the console's
// tests do not install: getContext and toDataURL answer null, but each call
// also prints a "Not implemented" stack trace (antd's QR code asks on every
// render). Answer the same null quietly; code must still cope with it, as it
// must in a browser that refuses a context.
if (typeof window !== 'undefined') {
  Object.defineProperty(window.HTMLCanvasElement.prototype, 'getContext', {
    configurable: true,
    writable: true,
    value: () => null,
  });
  Object.defineProperty(window.HTMLCanvasElement.prototype, 'toDataURL', {
    configurable: true,
    writable: true,
    value: () => null,
  });
}

// A click on a link with a `download` attribute saves a file in a browser; jsdom
// instead tries to load the link as a page and prints "Not implemented:
// navigation". Downloads are not navigations: stop jsdom's page load for them
// only, so a click on an ordinary link still shows up.
if (typeof window !== 'undefined') {
  window.addEventListener(
    'click',
    (event) => {
      const target = event.target;
      if (target instanceof window.Element && target.closest('a[download]')) event.preventDefault();
    },
    { capture: true },
  );
}

// jsdom has no object URLs. Downloads (exports) make one and revoke it a second
// later, possibly after the test that started them has ended: both must exist
// for the whole run, not only while a test stubs them.
if (typeof URL.createObjectURL !== 'function') {
  let made = 0;
  URL.createObjectURL = () => `blob:jsdom/${(made += 1)}`;
}
if (typeof URL.revokeObjectURL !== 'function') URL.revokeObjectURL = () => undefined;

// The tests' fetch and Request are Node's, their AbortController jsdom's: Node 24 refuses a signal that is not its
// own ("Expected signal to be an instance of AbortSignal"), where Node 20 took it. The console aborts requests (a
// query no longer wanted) and React Router makes a Request per navigation: hand Node a signal of its own that aborts
// when the caller's does, so aborting behaves as in a browser.
if (typeof window !== 'undefined') {
  const NodeAbortSignal = transferableAbortController().signal.constructor as abstract new () => object;
  const nodeSignalOf = (signal: AbortSignal | null | undefined) => {
    if (!signal || signal instanceof NodeAbortSignal) return signal;
    const controller = transferableAbortController();
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    return controller.signal;
  };
  const nodeFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    nodeFetch(input, init?.signal ? { ...init, signal: nodeSignalOf(init.signal) } : init);
  const NodeRequest = globalThis.Request;
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(input, init?.signal ? { ...init, signal: nodeSignalOf(init.signal) } : init);
    }
  };
}
