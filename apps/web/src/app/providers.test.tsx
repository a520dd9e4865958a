import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { AntdProviders as AppProviders } from './antd-providers';

const realMatchMedia = window.matchMedia;

/** jsdom has no real media queries: stand in for the operating system's "reduce motion" setting. */
function setSystemReducedMotion(isReduced: boolean) {
  window.matchMedia = ((query: string) => ({
    ...realMatchMedia(query),
    matches: isReduced && query.includes('prefers-reduced-motion: reduce'),
  })) as typeof window.matchMedia;
}

afterEach(() => {
  window.matchMedia = realMatchMedia;
});

function MotionProbe() {
  const { token } = theme.useToken();
  return <p data-testid="motion">{String(token.motion)}</p>;
}

describe("the console's antd providers", () => {
  it("turn antd's animations off when the system asks for reduced motion, and keep them otherwise", () => {
    setSystemReducedMotion(true);
    const reduced = render(
      <AppProviders>
        <MotionProbe />
      </AppProviders>,
    );
    expect(screen.getByTestId('motion').textContent).toBe('false');
    reduced.unmount();

    setSystemReducedMotion(false);
    render(
      <AppProviders>
        <MotionProbe />
      </AppProviders>,
    );
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });
});
