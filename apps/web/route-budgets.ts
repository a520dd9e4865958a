import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import type { Plugin, ResolvedConfig } from 'vite';

/*
 * The build's JavaScript budget per route: what a cold load of each screen of
 * the router downloads (entry chunk, the layout around the screen, the
 * screen's chunk, and every chunk these import statically), gzipped. The
 * build fails when a route goes over its budget.
 */

/** 1 KB = 1000 bytes in budgets and in the printed table. */
export const KB = 1000;

export type TRouteAccess = 'public' | 'protected' | 'admin';

/** A route as declared in a routes module: its path, who may see it and the module its `load` imports. */
export type TDeclaredRoute = { path: string; access: TRouteAccess; specifier: string; isLight?: boolean };

/** The budgets in bytes of gzipped JavaScript: by exact path first, then by access, then the default. */
export type TBudgets = {
  byPath?: Record<string, number>;
  byAccess?: Partial<Record<TRouteAccess, number>>;
  default: number;
};

/** The chunk graph as the check needs it (a subset of the bundler's output chunks). */
export type TChunkInfo = {
  fileName: string;
  code: string;
  imports: string[];
  dynamicImports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
  moduleIds: string[];
};

export type TRouteCost = {
  path: string;
  access: TRouteAccess;
  files: string[];
  gzipBytes: number;
  budget: number;
  isOver: boolean;
};

function stringValue(node: ts.Expression | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** The module `() => import('x')` (or `async () => import('x')`, `() => { return import('x'); }`) imports. */
function importedSpecifier(node: ts.Expression | undefined): string | undefined {
  if (!node || !(ts.isArrowFunction(node) || ts.isFunctionExpression(node))) return undefined;
  let body: ts.Node = node.body;
  if (ts.isBlock(body)) {
    const ret = body.statements.find(ts.isReturnStatement);
    if (!ret?.expression) return undefined;
    body = ret.expression;
  }
  while (ts.isParenthesizedExpression(body as ts.Expression) || ts.isAwaitExpression(body as ts.Expression)) {
    body = (body as ts.ParenthesizedExpression | ts.AwaitExpression).expression;
  }
  if (ts.isCallExpression(body) && body.expression.kind === ts.SyntaxKind.ImportKeyword)
    return stringValue(body.arguments[0]);
  return undefined;
}

function property(node: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const prop of node.properties) {
    if (
      ts.isPropertyAssignment(prop) &&
      (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name)) &&
      prop.name.text === name
    ) {
      return prop.initializer;
    }
    if (ts.isMethodDeclaration(prop) && ts.isIdentifier(prop.name) && prop.name.text === name) return undefined;
  }
  return undefined;
}

/**
 * Every route object literal of a routes module: `{ path: '...', access: '...', load: () => import('...') }`.
 * An object with a `path` and a `load` that is not a plain dynamic import, or without a literal
 * access, is refused: the check would otherwise skip a screen silently.
 */
export function readDeclaredRoutes(source: string, fileName: string): TDeclaredRoute[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const routes: TDeclaredRoute[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const pathNode = property(node, 'path');
      const loadNode = property(node, 'load');
      if (pathNode && loadNode) {
        const routePath = stringValue(pathNode);
        const specifier = importedSpecifier(loadNode);
        const access = stringValue(property(node, 'access'));
        const where = `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        if (routePath === undefined)
          throw new Error(`${where}: a route's path must be a string literal for the route budgets`);
        if (specifier === undefined)
          throw new Error(`${where}: route ${routePath}: load must be () => import('<module>')`);
        if (access !== 'public' && access !== 'protected' && access !== 'admin') {
          throw new Error(`${where}: route ${routePath}: access must be 'public', 'protected' or 'admin'`);
        }
        const isLight = property(node, 'isLight')?.kind === ts.SyntaxKind.TrueKeyword;
        routes.push({ path: routePath, access, specifier, ...(isLight ? { isLight } : {}) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return routes;
}

/** The budget of a route: by path, else by access, else the default. */
export function budgetOf(budgets: TBudgets, route: { path: string; access: TRouteAccess }): number {
  return budgets.byPath?.[route.path] ?? budgets.byAccess?.[route.access] ?? budgets.default;
}

/** The chunks a cold load of `roots` downloads: the roots and everything they import statically, transitively, once each. */
export function staticClosure(chunks: Map<string, TChunkInfo>, roots: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    const chunk = chunks.get(name);
    if (!chunk) throw new Error(`route budgets: no chunk ${name} in the bundle`);
    seen.add(name);
    stack.push(...chunk.imports);
  }
  return [...seen].sort();
}

/** Gzipped size (level 9, as the server's precompressed copies) of each chunk, computed once. */
export function gzipSizer(chunks: Map<string, TChunkInfo>): (fileName: string) => number {
  const sizes = new Map<string, number>();
  return (fileName) => {
    let size = sizes.get(fileName);
    if (size === undefined) {
      size = gzipSync(chunks.get(fileName)!.code, { level: 9 }).length;
      sizes.set(fileName, size);
    }
    return size;
  };
}

/**
 * What each route downloads on a cold load: the entry chunk, the chunk of its layout (if any),
 * the chunk of its screen and the parts the screen loads lazily itself (its charts, dialogs),
 * and their static imports, gzipped and summed.
 * `screenChunk` and `layoutChunk` give the chunk file whose facade is the given module.
 */
export function routeCosts(input: {
  chunks: Map<string, TChunkInfo>;
  routes: { path: string; access: TRouteAccess; screenChunk: string; layoutChunk?: string; alsoLoads?: string[] }[];
  /** Chunks every cold load fetches besides the entry's (loaded lazily by the entry on start). */
  alsoLoads?: string[];
  budgets: TBudgets;
}): TRouteCost[] {
  const entries = [
    ...[...input.chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName),
    ...(input.alsoLoads ?? []),
  ];
  if (!entries.length) throw new Error('route budgets: the bundle has no entry chunk');
  const gzipped = gzipSizer(input.chunks);
  return input.routes.map((route) => {
    const lazyParts = input.chunks.get(route.screenChunk)?.dynamicImports ?? [];
    const files = staticClosure(input.chunks, [
      ...entries,
      ...(route.alsoLoads ?? []),
      ...(route.layoutChunk ? [route.layoutChunk] : []),
      route.screenChunk,
      ...lazyParts,
    ]);
    const gzipBytes = files.reduce((sum, f) => sum + gzipped(f), 0);
    const budget = budgetOf(input.budgets, route);
    return { path: route.path, access: route.access, files, gzipBytes, budget, isOver: gzipBytes > budget };
  });
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** The table the build prints: one line per route, heaviest first. */
export function formatRouteCosts(costs: TRouteCost[], budgets: TBudgets): string {
  const rows = [...costs].sort((a, b) => b.gzipBytes - a.gzipBytes || a.path.localeCompare(b.path));
  const width = Math.max(5, ...rows.map((r) => r.path.length));
  const lines = [
    `route budgets (gzipped JavaScript of a cold load; 1 KB = ${KB} bytes; default budget ${kb(budgets.default)}):`,
    `  ${'route'.padEnd(width)}  ${'access'.padEnd(9)}  ${'files'.padStart(5)}  ${'gzip'.padStart(10)}  ${'budget'.padStart(10)}`,
    ...rows.map(
      (r) =>
        `  ${r.path.padEnd(width)}  ${r.access.padEnd(9)}  ${String(r.files.length).padStart(5)}  ${kb(r.gzipBytes).padStart(10)}  ${kb(r.budget).padStart(10)}${r.isOver ? '  OVER' : ''}`,
    ),
  ];
  return lines.join('\n');
}

/** Throws, naming each route over its budget, when there is one. */
export function assertWithinBudgets(costs: TRouteCost[]): void {
  const over = costs.filter((c) => c.isOver);
  if (over.length) {
    throw new Error(
      `${over.length} route(s) over their budget of gzipped JavaScript: ${over.map((c) => `${c.path} ${kb(c.gzipBytes)} > ${kb(c.budget)}`).join(', ')}`,
    );
  }
}

export type TRouteBudgetsOptions = {
  /** The module that gathers the route modules (each module it imports is read for route objects), relative to the root. */
  routesModule: string;
  /** The shell's own routes module (its routes yield to a feature's route of the same path, as in the router). */
  shellRoutesModule: string;
  /** The layout module around the screens of each access, relative to the root (lazily imported by the router). */
  layouts: Partial<Record<TRouteAccess, string>>;
  /**
   * Modules every cold load fetches besides the entry's static imports, relative to the root
   * (the features' texts the router awaits before any screen); by access when they differ.
   */
  alsoLoads?: string[] | Partial<Record<TRouteAccess, string[]>>;
  /**
   * Modules the router loads around every screen not marked `isLight: true` (antd's providers),
   * relative to the root; a light public screen (the sign-in pages) loads none of them.
   */
  unlessLight?: string[];
  budgets: TBudgets;
};

/**
 * Vite plugin: after bundling, reads the routes from the modules the router's route list
 * imports, maps each screen and layout module to its chunk, prints the cold-load cost of
 * every route and fails the build when one goes over its budget.
 */
export function routeBudgetsPlugin(options: TRouteBudgetsOptions): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'route-budgets',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle(_output, bundle) {
      const chunks = new Map<string, TChunkInfo>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') {
          chunks.set(item.fileName, {
            fileName: item.fileName,
            code: item.code,
            imports: item.imports,
            dynamicImports: item.dynamicImports,
            isEntry: item.isEntry,
            facadeModuleId: item.facadeModuleId,
            moduleIds: item.moduleIds,
          });
        }
      }
      const chunkOf = (moduleId: string, what: string): string => {
        // Its own chunk, else the chunk it was bundled into (the entry, when it is imported statically).
        const all = [...chunks.values()];
        const found = all.find((c) => c.facadeModuleId === moduleId) ?? all.find((c) => c.moduleIds.includes(moduleId));
        if (!found) this.error(`route budgets: ${what} (${moduleId}) is in no chunk of the bundle`);
        return found.fileName;
      };
      const routesModule = path.resolve(config.root, options.routesModule);
      const info = this.getModuleInfo(routesModule);
      if (!info) this.error(`route budgets: ${options.routesModule} is not in the bundle`);
      const shellModule = path.resolve(config.root, options.shellRoutesModule);
      const featureFiles = info.importedIds.filter(
        (id) => id !== shellModule && /\.[cm]?[jt]sx?$/.test(id) && !id.includes('/node_modules/'),
      );
      const routeFiles = [routesModule, ...featureFiles.sort(), shellModule];
      const alsoLoadsOf = (access: TRouteAccess): string[] => {
        const modules = Array.isArray(options.alsoLoads) ? options.alsoLoads : (options.alsoLoads?.[access] ?? []);
        return modules.map((m) => chunkOf(path.resolve(config.root, m), 'a module every cold load fetches'));
      };
      const routes: {
        path: string;
        access: TRouteAccess;
        screenChunk: string;
        layoutChunk?: string;
        alsoLoads: string[];
      }[] = [];
      const seenPaths = new Set<string>();
      for (const file of routeFiles) {
        for (const declared of readDeclaredRoutes(readFileSync(file, 'utf8'), file)) {
          // Feature routes win over the shell's route of the same path, as in the router.
          if (seenPaths.has(declared.path)) continue;
          seenPaths.add(declared.path);
          const resolved = await this.resolve(declared.specifier, file);
          if (!resolved) this.error(`route budgets: cannot resolve ${declared.specifier} from ${file}`);
          const layout = options.layouts[declared.access];
          routes.push({
            path: declared.path,
            access: declared.access,
            screenChunk: chunkOf(resolved.id, `the screen of ${declared.path}`),
            layoutChunk: layout
              ? chunkOf(path.resolve(config.root, layout), `the ${declared.access} layout`)
              : undefined,
            alsoLoads: [
              ...alsoLoadsOf(declared.access),
              ...(declared.isLight
                ? []
                : (options.unlessLight ?? []).map((m) =>
                    chunkOf(path.resolve(config.root, m), 'a module of the screens not marked light'),
                  )),
            ],
          });
        }
      }
      if (!routes.length)
        this.error(`route budgets: no route found in ${options.routesModule} or the modules it imports`);
      const costs = routeCosts({ chunks, routes, budgets: options.budgets });
      config.logger.info(`\n${formatRouteCosts(costs, options.budgets)}\n`);
      try {
        assertWithinBudgets(costs);
      } catch (error) {
        this.error((error as Error).message);
      }
    },
  };
}
