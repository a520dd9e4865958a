import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { ROUTES } from '../src/routes';
import { renderRouteTable } from '../src/route-table-source';

// Writes src/route-table.ts, the schema-free route table, from ROUTES, formatted as the repository formats.
const target = fileURLToPath(new URL('../src/route-table.ts', import.meta.url));
const options = (await resolveConfig(target)) ?? {};
writeFileSync(target, await format(renderRouteTable(ROUTES), { ...options, filepath: target }));
console.log(`wrote ${target}`);
