import { describe, expect, it } from 'vitest';
import { PUBLIC_NAMESPACES, SHELL_NAMESPACES } from '../lib/i18n';
import { featureLocales as publicEn } from '../lib/feature-locales-public-en';
import { featureLocales as publicZh } from '../lib/feature-locales-public-zh';
import { featureRoutes } from './feature-routes';
import { SHELL_ROUTES } from './route-list';

// The console's tests load every feature's texts at once (lib/i18n.ts), so a screen's own tests cannot see what
// a visitor's browser lacks: a public page loads only the public chunk of feature texts, and a namespace
// missing there shows its keys instead of its words.
describe('texts of the public screens', () => {
  it("are in the public chunk of both languages: every public route's namespace, and nothing else", () => {
    const namespacesOf = (files: Record<string, unknown>) =>
      Object.keys(files)
        .map((file) => /features\/([\w-]+)\/locales\//.exec(file)?.[1])
        .sort();
    const shell: readonly string[] = SHELL_NAMESPACES;
    const publicScreens = [...featureRoutes, ...SHELL_ROUTES]
      .filter((route) => route.access === 'public')
      .map((route) => ({ path: route.path, namespace: route.titleKey.split(':')[0] }))
      .filter((screen) => !shell.includes(screen.namespace));
    const listed: readonly string[] = PUBLIC_NAMESPACES;
    expect(publicScreens.filter((screen) => !listed.includes(screen.namespace))).toEqual([]);
    expect(namespacesOf(publicEn)).toEqual([...PUBLIC_NAMESPACES].sort());
    expect(namespacesOf(publicZh)).toEqual([...PUBLIC_NAMESPACES].sort());
  });
});
