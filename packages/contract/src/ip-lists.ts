import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { IP_ENTRY_KINDS, IP_LIST_REMARK_MAX } from './ip';
import { defineRoute, type TRouteDef } from './route-def';
import { zIdParam } from './validators';

/** IP whitelist and blacklist (spec sections 3, 5 and 7; the security page). */

/** An entry of an IP whitelist or blacklist as the API shows it. */
export const ZIpListEntry = z.object({
  id: z.number().int(),
  /** Canonical text: "1.2.3.4", "10.0.0.0/24", "10.0.0.1-10.0.0.9" (IPv6 in RFC 5952 form). */
  ip: z.string(),
  kind: z.enum(IP_ENTRY_KINDS),
  remark: z.string(),
  created_at: z.string(),
});
/** Parsed IP list entry. */
export type TIpListEntry = z.infer<typeof ZIpListEntry>;

/**
 * Add form of both IP lists: `ip` holds one or more entries separated by ";".
 * The entries themselves are checked by the contract's IP parser in the
 * service (IP_FORMAT_INVALID names the bad one), not here.
 */
export const ZIpListAddForm = z.object({
  ip: z.string({ error: 'ipRequired' }).trim().min(1, { error: 'ipRequired' }).max(60_000, { error: 'tooLong' }),
  remark: z.string().trim().max(IP_LIST_REMARK_MAX, { error: 'ipRemarkMax' }).default(''),
});
/** Parsed add form. */
export type TIpListAddForm = z.infer<typeof ZIpListAddForm>;

const zIpListPage = zPage(ZIpListEntry);
const zIpListAdded = z.object({ records: z.array(ZIpListEntry) });

/** Both IP lists: read, add (several entries, all or nothing) and remove. */
export const IP_LIST_ROUTES = {
  userWhitelist: defineRoute({
    method: 'GET',
    path: '/user/ip/whitelist',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'IP whitelist',
    tag: 'security',
    input: ZPageQuery,
    output: zIpListPage,
  }),
  userWhitelistAdd: defineRoute({
    method: 'POST',
    path: '/user/add/ip/whitelist',
    auth: 'user',
    body: 'form',
    summary: 'Add whitelist entries ("ip": entries separated by ";"), all or nothing',
    tag: 'security',
    input: ZIpListAddForm,
    output: zIpListAdded,
  }),
  userBlacklist: defineRoute({
    method: 'GET',
    path: '/user/ip/blacklist',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'IP blacklist',
    tag: 'security',
    input: ZPageQuery,
    output: zIpListPage,
  }),
  userBlacklistAdd: defineRoute({
    method: 'POST',
    path: '/user/add/ip/blacklist',
    auth: 'user',
    body: 'form',
    summary: 'Add blacklist entries ("ip": entries separated by ";"), all or nothing',
    tag: 'security',
    input: ZIpListAddForm,
    output: zIpListAdded,
  }),
  userIpRemove: defineRoute({
    method: 'DELETE',
    path: '/user/remove/ip/:id',
    auth: 'user',
    summary: 'Remove an IP list entry (either list)',
    tag: 'security',
    input: zIdParam,
  }),
} as const satisfies Record<string, TRouteDef>;
