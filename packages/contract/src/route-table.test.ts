import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as full from './index';
import * as light from './light';
import { ROUTE_TABLE } from './route-table';
import { routeCallOf } from './route-table-source';
import { ROUTES } from './routes';

const REGENERATE = 'run `npm run gen:route-table -w packages/contract`';

describe('the schema-free route table', () => {
  it('has every route of ROUTES, in order, with its method, path, auth, body and file answer', () => {
    expect(Object.keys(ROUTE_TABLE), REGENERATE).toEqual(Object.keys(ROUTES));
    const projected = Object.fromEntries(Object.entries(ROUTES).map(([name, def]) => [name, routeCallOf(def)]));
    expect(ROUTE_TABLE, REGENERATE).toEqual(projected);
  });

  it('is what a full table would make of a file route and of a JSON route', () => {
    expect(ROUTE_TABLE.openapi).toEqual({
      method: 'GET',
      path: '/openapi.json',
      auth: 'none',
      body: 'none',
      isBlob: true,
    });
    expect(routeCallOf(ROUTES.userLogin)).toEqual({ method: 'POST', path: '/user/login', auth: 'none', body: 'form' });
  });
});

/** Relative modules a source file imports (values and types), and its package imports. */
function importsOf(file: string): { relative: string[]; packages: string[]; typeOnly: string[] } {
  const source = readFileSync(file, 'utf8');
  const relative: string[] = [];
  const packages: string[] = [];
  const typeOnly: string[] = [];
  for (const match of source.matchAll(/^(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm)) {
    const [, , isType, specifier] = match;
    if (isType) typeOnly.push(specifier);
    else if (specifier.startsWith('.')) relative.push(specifier);
    else packages.push(specifier);
  }
  return { relative, packages, typeOnly };
}

describe('@proxy/contract/light', () => {
  it('loads no schema library: its modules import no package at run time', () => {
    const seen = new Set<string>();
    const stack = [fileURLToPath(new URL('./light.ts', import.meta.url))];
    const packages: string[] = [];
    while (stack.length) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const found = importsOf(file);
      packages.push(...found.packages);
      stack.push(...found.relative.map((r) => fileURLToPath(new URL(`${r}.ts`, `file://${file}`))));
    }
    expect(packages).toEqual([]);
    expect([...seen].map((f) => f.replace(/.*\/src\//, '')).sort()).toEqual(
      [
        'api-constants.ts',
        'auth-sign-in.ts',
        'constants.ts',
        'errors.ts',
        'i18n.ts',
        'light.ts',
        'messages.ts',
        'money.ts',
        'route-table.ts',
      ].sort(),
    );
  });

  it('exports the same values as the full contract', () => {
    for (const [name, value] of Object.entries(light)) {
      if (name === 'ROUTE_TABLE') continue;
      expect(full[name as keyof typeof full], name).toBe(value);
    }
  });
});
