import { z } from 'zod';
import { defineRoute, type TRouteDef } from './route-def';

/** Kinds of upstream exit: residential (ISP) or data-center. */
export const INVENTORY_KINDS = ['residential', 'datacenter'] as const;

/** The largest CSV one import takes (the API's body limit is 256 KiB; bigger files: npm run inventory:import, or several imports). */
export const INVENTORY_CSV_MAX_CHARS = 200_000;

/** An import of upstream proxies in the CSV format of `npm run inventory:import`; `dry_run` only checks it. */
export const ZInventoryImportBody = z.object({
  csv: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(INVENTORY_CSV_MAX_CHARS, { error: 'tooLong' }),
  kind: z.enum(INVENTORY_KINDS, { error: 'invalidValue' }),
  dry_run: z.boolean({ error: 'invalidValue' }).default(false),
});

/** What an import did (or, dry, would do): nodes imported, duplicates skipped, or the bad lines (then nothing is imported). */
export const ZInventoryImportResult = z.object({
  valid: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
/** Parsed import result. */
export type TInventoryImportResult = z.infer<typeof ZInventoryImportResult>;

/** Operators: import upstream exits while the server runs (the embedded database admits no second process). */
export const INVENTORY_ADMIN_ROUTES = {
  adminInventoryImport: defineRoute({
    method: 'POST',
    path: '/admin/inventory/import',
    auth: 'admin',
    body: 'json',
    summary: 'Import upstream proxies (CSV of npm run inventory:import); a bad line imports nothing and is listed with its number; dry_run only checks',
    tag: 'admin',
    input: ZInventoryImportBody,
    output: ZInventoryImportResult,
  }),
} as const satisfies Record<string, TRouteDef>;
