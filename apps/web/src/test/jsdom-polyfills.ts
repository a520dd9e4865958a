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

// jsdom implements getComputedStyle without pseudo-elements and prints a "Not
// implemented" stack trace whenever one is asked for (antd measures the
// scrollbar with "::-webkit-scrollbar"). Answer the element's own style instead.
if (typeof window !== 'undefined') {
  const elementStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element) => elementStyle(element);
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
