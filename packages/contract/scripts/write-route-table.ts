import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { ROUTES } from '../src/routes';
import { renderRouteNames, renderRouteTable } from '../src/route-table-source';

// Writes src/route-table.ts, the schema-free route table, and src/route-names.ts, the names of its keys, from ROUTES,
// formatted as the repository formats.
for (const [file, text] of [
  ['route-table.ts', renderRouteTable(ROUTES)],
  ['route-names.ts', renderRouteNames(ROUTES)],
] as const) {
  const target = fileURLToPath(new URL(`../src/${file}`, import.meta.url));
  const options = (await resolveConfig(target)) ?? {};
  writeFileSync(target, await format(text, { ...options, filepath: target }));
  console.log(`wrote ${target}`);
}
