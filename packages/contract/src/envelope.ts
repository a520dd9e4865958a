import { z } from 'zod';
import { zDigits } from './validators';

/** Body code of every successful answer (declared in api-constants.ts). */
export { OK_CODE } from './api-constants';

/** Every API answer: `{ code, msg, data }`. */
export const ZEnvelope = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.unknown(),
});
/** Parsed envelope. */
export type TEnvelope<T = unknown> = { code: number; msg: string; data: T };

/** Data of a failed answer: the stable error name and, for validation, the fields at fault. */
export type TErrorData = {
  error: string;
  issues?: { path: string; message: string }[];
};

/** A page of a paged list (ARCHITECTURE.md, API conventions). */
export type TPage<T> = { records: T[]; total: number; page: number; page_size: number };

/** Paging query shared by every paged list. */
export const ZPageQuery = z.object({
  page: zDigits(
    z.number().int({ error: 'pageRange' }).min(1, { error: 'pageRange' }).max(1_000_000, { error: 'pageRange' }),
  ).default(1),
  page_size: zDigits(
    z.number().int({ error: 'pageSizeRange' }).min(1, { error: 'pageSizeRange' }).max(200, { error: 'pageSizeRange' }),
  ).default(20),
});

/** Zod schema of a page of records. */
export function zPage<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z
      .number()
      .int()
      .meta({ examples: [1] }),
    page: z
      .number()
      .int()
      .meta({ examples: [1] }),
    page_size: z
      .number()
      .int()
      .meta({ examples: [20] }),
  });
}

/** Answer of batch calls (`token_ids`): per-item outcome counts. */
export const ZBatchResult = z.object({
  success: z.number().int(),
  failed: z.number().int(),
  total: z.number().int(),
});
/** Parsed batch answer. */
export type TBatchResult = z.infer<typeof ZBatchResult>;
