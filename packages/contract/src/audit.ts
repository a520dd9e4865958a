import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zId } from './validators';

/**
 * The operator area's audit list: every admin call that changes data leaves
 * an entry, written by the server's routing layer (never by hand).
 */

/** One audit entry. */
export const ZAuditEntry = z.object({
  id: z.number().int(),
  operator_id: z.number().int(),
  operator_email: z.string(),
  /** Route name of the call (the contract's route table). */
  route: z.string(),
  method: z.string(),
  path: z.string(),
  /** The id the call acted on, if any. */
  target_id: z.string().nullable(),
  /** The call's input, without passwords, codes, keys or tokens. */
  input: z.record(z.string(), z.unknown()),
  result: z.enum(['ok', 'error']),
  /** Error name when the call failed. */
  error_code: z.string().nullable(),
  ip: z.string(),
  created_at: z.string(),
});
/** Parsed audit entry. */
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

const zOptionalText = z.string().trim().max(64, { error: 'tooLong' }).optional();
const zOptionalTime = z.iso.datetime({ offset: true, error: 'invalidValue' }).optional();

/** Filters of the audit list. */
export const ZAuditQuery = ZPageQuery.extend({
  operator_id: zId.optional(),
  /** The operator's e-mail, or part of it (any case). */
  operator_email: z.string().trim().max(254, { error: 'tooLong' }).optional(),
  route: zOptionalText,
  target_id: zOptionalText,
  /** From this time (ISO 8601), inclusive. */
  from: zOptionalTime,
  /** Before this time (ISO 8601). */
  to: zOptionalTime,
});
/** Parsed audit filters. */
export type TAuditQuery = z.output<typeof ZAuditQuery>;

/** The operator area's audit list. */
export const AUDIT_ROUTES = {
  adminAuditList: defineRoute({
    method: 'GET',
    path: '/admin/audit/list',
    auth: 'admin',
    summary: 'Audit entries of operator calls, newest first (filters: operator id or e-mail, route, target, time)',
    tag: 'admin',
    input: ZAuditQuery,
    output: zPage(ZAuditEntry),
  }),
} as const satisfies Record<string, TRouteDef>;
