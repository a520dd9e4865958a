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
