import {
  IP_LIST_MAX_ENTRIES,
  IP_LIST_NAMES,
  findDuplicateRanges,
  ipBoundToHex,
  parseIpEntries,
  type TIpList,
  type TIpListAddForm,
  type TIpListEntry,
  type TIpRange,
  type TLang,
  type TPage,
} from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import { bumpGatewayVersion } from '../gateway/gateway-state.repository';
import { changeGatewayState } from '../gateway/gateway-state.service';
import { uniqueViolationOf } from '../../lib/database-errors';
import {
  deleteIpListEntry,
  insertIpListEntries,
  listIpListPage,
  listIpListRanges,
  lockIpList,
  type TIpListEntryRow,
  type TIpListRangeKey,
} from './ip-lists.repository';

/**
 * IP whitelist and blacklist (spec sections 3 and 5; ARCHITECTURE.md, Proxies:
 * list semantics). The gateway reads `ip_list_entries` itself when the
 * gateway version changes, so every change here bumps it in its transaction.
 */

/** An entry as the API shows it. */
export function toIpListEntry(row: TIpListEntryRow): TIpListEntry {
  return { id: row.id, ip: row.entry, kind: row.kind, remark: row.remark, created_at: row.createdAt.toISOString() };
}

function rangeKeyOf(range: Pick<TIpRange, 'family' | 'start' | 'end'>): string {
  return `${range.family}:${ipBoundToHex(range.start)}-${ipBoundToHex(range.end)}`;
}

function storedKeyOf(row: TIpListRangeKey): string {
  return `${row.family}:${row.startHex}-${row.endHex}`;
}

/** A page of one of the user's lists, newest first. */
export async function listIpEntries(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  list: TIpList,
  query: { page: number; page_size: number },
): Promise<TPage<TIpListEntry>> {
  const { rows, total } = await listIpListPage(deps.db, userId, list, {
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return { records: rows.map(toIpListEntry), total, page: query.page, page_size: query.page_size };
}

/**
 * Parses the field into ranges, all or nothing: the first malformed entry is
 * IP_FORMAT_INVALID (naming it), a range given twice is IP_DUPLICATE.
 */
export function parseSubmission(field: string, list: TIpList, lang: TLang): TIpRange[] {
  const { ranges, errors } = parseIpEntries(field);
  if (ranges.length === 0 && errors.every((e) => e.reason === 'empty')) {
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'ip', message: 'ipRequired' }]);
  }
  if (errors.length > 0) throw new AppError('IP_FORMAT_INVALID', { entry: errors[0].input.trim() });
  const [duplicate] = findDuplicateRanges(ranges);
  if (duplicate) throw new AppError('IP_DUPLICATE', { listName: IP_LIST_NAMES[list][lang], entry: duplicate.text });
  return ranges;
}

/**
 * Adds one or more entries to a list, all or nothing: refuses malformed
 * entries, duplicates of the list's entries or within the submission, and a
 * list that would exceed IP_LIST_MAX_ENTRIES. Answers the created entries.
 */
export async function addIpEntries(
  deps: Pick<TDeps, 'db' | 'clock' | 'gatewayApplied'>,
  userId: number,
  list: TIpList,
  form: TIpListAddForm,
  lang: TLang,
): Promise<TIpListEntry[]> {
  const ranges = parseSubmission(form.ip, list, lang);
  const listName = IP_LIST_NAMES[list][lang];
  const createdAt = deps.clock.now();
  try {
    const rows = await changeGatewayState(deps, () =>
      deps.db.transaction(async (tx) => {
        await lockIpList(tx, userId, list);
        const existing = await listIpListRanges(tx, userId, list);
        const existingKeys = new Set(existing.map(storedKeyOf));
        const duplicate = ranges.find((r) => existingKeys.has(rangeKeyOf(r)));
        if (duplicate) throw new AppError('IP_DUPLICATE', { listName, entry: duplicate.text });
        if (existing.length + ranges.length > IP_LIST_MAX_ENTRIES) {
          throw new AppError('IP_LIST_FULL', { listName, max: IP_LIST_MAX_ENTRIES, count: existing.length });
        }
        const inserted = await insertIpListEntries(
          tx,
          ranges.map((r) => ({
            userId,
            list,
            entry: r.text,
            kind: r.kind,
            family: r.family,
            startHex: ipBoundToHex(r.start),
            endHex: ipBoundToHex(r.end),
            remark: form.remark,
            createdAt,
          })),
        );
        await bumpGatewayVersion(tx);
        return inserted;
      }),
    );
    return rows.map(toIpListEntry);
  } catch (error) {
    // The lock makes this unreachable in practice; the unique index is the last word.
    if (uniqueViolationOf(error) !== undefined) {
      throw new AppError('IP_DUPLICATE', { listName, entry: ranges.map((r) => r.text).join('; ') });
    }
    throw error;
  }
}

/** Removes one of the user's entries from either list; another user's or an unknown id is NOT_FOUND. */
export async function removeIpEntry(
  deps: Pick<TDeps, 'db' | 'gatewayApplied'>,
  userId: number,
  id: number,
): Promise<void> {
  await changeGatewayState(deps, () =>
    deps.db.transaction(async (tx) => {
      const deleted = await deleteIpListEntry(tx, userId, id);
      if (!deleted) throw new AppError('NOT_FOUND');
      await bumpGatewayVersion(tx);
    }),
  );
}
