import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assertWithinBudgets,
  budgetOf,
  formatRouteCosts,
  KB,
  readDeclaredRoutes,
  routeCosts,
  staticClosure,
  type TChunkInfo,
} from './route-budgets';

/** A chunk of `size` random base64 characters (gzip keeps about three quarters of them). */
function chunk(fileName: string, size: number, extra: Partial<TChunkInfo> = {}): TChunkInfo {
  return {
    fileName,
    code: randomBytes(size).toString('base64').slice(0, size),
    imports: [],
    dynamicImports: [],
    isEntry: false,
    facadeModuleId: null,
    moduleIds: [],
    ...extra,
  };
}

function graph(chunks: TChunkInfo[]): Map<string, TChunkInfo> {
  return new Map(chunks.map((c) => [c.fileName, c]));
}

const BUDGETS = { byPath: { '/': 50 * KB }, byAccess: { public: 20 * KB }, default: 40 * KB };

describe('reading the routes of a routes module', () => {
  it('finds each route object with its path, access and the module its load imports', () => {
    const source = `
      import { HomeOutlined } from '@ant-design/icons';
      export const demoRoutes: TAppRoute[] = [
        { path: '/login', load: () => import('./components/login-page'), access: 'public', titleKey: 'a:b', isTabless: true, isLight: true },
        {
          path: "/",
          access: 'protected',
          menu: { order: 1, icon: <HomeOutlined /> },
          load: async () => await import("./components/home-page"),
        },
      ];`;
    expect(readDeclaredRoutes(source, 'routes.tsx')).toEqual([
      // A light screen (no antd providers around it) says so.
      { path: '/login', access: 'public', specifier: './components/login-page', isLight: true },
      { path: '/', access: 'protected', specifier: './components/home-page' },
    ]);
  });

  it('refuses a route whose load is not a plain dynamic import, so no screen is skipped silently', () => {
    const source = `export const r = [{ path: '/x', access: 'public', load: loadX }];`;
    expect(() => readDeclaredRoutes(source, 'routes.tsx')).toThrow(/route \/x: load must be/);
  });
});

describe('the cold load of a route', () => {
  const chunks = graph([
    chunk('entry.js', 10_000, { isEntry: true, imports: ['react.js'] }),
    chunk('react.js', 5_000),
    chunk('texts.js', 1_000),
    chunk('layout.js', 8_000, { imports: ['react.js', 'menu.js'] }),
    chunk('menu.js', 4_000),
    chunk('login.js', 2_000, { imports: ['form.js'] }),
    chunk('form.js', 3_000, { imports: ['react.js'] }),
    chunk('home.js', 2_000, { imports: ['form.js'], dynamicImports: ['chart.js'] }),
    chunk('chart.js', 40_000, { imports: ['echarts.js'] }),
    chunk('echarts.js', 9_000),
  ]);

  it('is the entry, the extra start-up chunks, the layout, the screen, its lazy parts and their static imports, each once', () => {
    expect(staticClosure(chunks, ['entry.js', 'login.js'])).toEqual(['entry.js', 'form.js', 'login.js', 'react.js']);
    const [login, home] = routeCosts({
      chunks,
      alsoLoads: ['texts.js'],
      budgets: BUDGETS,
      routes: [
        { path: '/login', access: 'public', screenChunk: 'login.js' },
        { path: '/', access: 'protected', screenChunk: 'home.js', layoutChunk: 'layout.js' },
      ],
    });
    expect(login.files).toEqual(['entry.js', 'form.js', 'login.js', 'react.js', 'texts.js']);
    expect(home.files).toEqual([
      'chart.js',
      'echarts.js',
      'entry.js',
      'form.js',
      'home.js',
      'layout.js',
      'menu.js',
      'react.js',
      'texts.js',
    ]);
    // 21,000 random base64 characters, gzipped one chunk at a time.
    expect(login.gzipBytes).toBeGreaterThan(14_000);
    expect(login.gzipBytes).toBeLessThan(21_000);
  });

  it('takes the budget by path, then by access, then the default', () => {
    expect(budgetOf(BUDGETS, { path: '/', access: 'protected' })).toBe(50 * KB);
    expect(budgetOf(BUDGETS, { path: '/register', access: 'public' })).toBe(20 * KB);
    expect(budgetOf(BUDGETS, { path: '/charge', access: 'protected' })).toBe(40 * KB);
  });

  it('fails when a route goes over its budget, naming it, and passes when every route is within', () => {
    const routes = [
      { path: '/login', access: 'public' as const, screenChunk: 'login.js' },
      { path: '/', access: 'protected' as const, screenChunk: 'home.js', layoutChunk: 'layout.js' },
    ];
    const over = routeCosts({ chunks, routes, budgets: BUDGETS });
    expect(over.map((c) => c.isOver)).toEqual([false, true]);
    expect(() => assertWithinBudgets(over)).toThrow(/1 route\(s\) over their budget.*\/ \d+\.\d KB > 50\.0 KB/);
    expect(formatRouteCosts(over, BUDGETS)).toMatch(/^ {2}\/ +protected .*OVER$/m);

    const within = routeCosts({ chunks, routes, budgets: { ...BUDGETS, byPath: { '/': 100 * KB } } });
    expect(() => assertWithinBudgets(within)).not.toThrow();
  });
});
