import type { TRouteDef } from './route-def';

/** The fields of a route a client needs to call it (no schemas). */
export type TRouteCallDef = Pick<TRouteDef, 'method' | 'path' | 'auth' | 'body'> & { isBlob?: true };

/** The schema-free projection of one route of the table. */
export function routeCallOf(def: TRouteDef): TRouteCallDef {
  return {
    method: def.method,
    path: def.path,
    auth: def.auth,
    body: def.body,
    ...(def.isBlob ? { isBlob: true as const } : {}),
  };
}

/**
 * The text of src/route-table.ts for a route table: what `npm run gen:route-table -w packages/contract`
 * writes and route-table.test.ts compares, so the light table never drifts from ROUTES.
 */
export function renderRouteTable(routes: Record<string, TRouteDef>): string {
  const lines = Object.entries(routes).map(([name, def]) => {
    const call = routeCallOf(def);
    const blob = call.isBlob ? ', isBlob: true' : '';
    return `  ${JSON.stringify(name)}: { method: ${JSON.stringify(call.method)}, path: ${JSON.stringify(call.path)}, auth: ${JSON.stringify(call.auth)}, body: ${JSON.stringify(call.body)}${blob} },`;
  });
  return [
    '// Generated from ROUTES (src/routes.ts) by `npm run gen:route-table -w packages/contract`; do not edit.',
    '// route-table.test.ts fails when it differs from ROUTES.',
    "import type { TRouteName } from './route-names';",
    "import type { TRouteCallDef } from './route-table-source';",
    '',
    '/** The API mount point and the body code of success (declared in api-constants.ts). */',
    "export { API_PREFIX, OK_CODE } from './api-constants';",
    '',
    '/**',
    ' * Every call of the API by route name, as a client calls it: method, path (relative to /api,',
    ' * with `:param` segments), auth, body encoding and file answers. No zod schema: the console',
    " * reads it (`@proxy/contract/route-table`) without downloading the contract's schemas.",
    ' */',
    'export const ROUTE_TABLE: Record<TRouteName, TRouteCallDef> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

/**
 * The text of src/route-names.ts, written with the route table: the route names as a type, so the
 * table names its keys without importing routes.ts (which imports every domain's schemas).
 */
export function renderRouteNames(routes: Record<string, TRouteDef>): string {
  return [
    '// Generated from ROUTES (src/routes.ts) by `npm run gen:route-table -w packages/contract`; do not edit.',
    '// The keys of ROUTE_TABLE (route-table.ts) are these names; route-table.test.ts fails when they differ from ROUTES.',
    '',
    '/** Name of a route in the table: TRouteName of routes.ts, written out for the schema-free route table. */',
    `export type TRouteName = ${Object.keys(routes)
      .map((name) => JSON.stringify(name))
      .join(' | ')};`,
    '',
  ].join('\n');
}
