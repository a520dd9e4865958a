import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '../src/routes';
import { renderRouteTable } from '../src/route-table-source';

// Writes src/route-table.ts, the schema-free route table, from ROUTES.
const target = fileURLToPath(new URL('../src/route-table.ts', import.meta.url));
writeFileSync(target, renderRouteTable(ROUTES));
console.log(`wrote ${target}`);
