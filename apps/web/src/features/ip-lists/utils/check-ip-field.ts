import { findDuplicateRanges, IP_LIST_MAX_ENTRIES, parseIpEntries, type TIpRange } from '@proxy/contract';

/** What is wrong with the add form's IP field, if anything. */
export type TIpFieldProblem =
  | { kind: 'required' }
  | { kind: 'format' | 'prefix' | 'order' | 'family'; entry: string }
  | { kind: 'duplicate'; entry: string }
  | { kind: 'tooMany'; count: number; max: number };

/**
 * Checks the field as the server will (the contract's parser, all or
 * nothing): the first malformed entry, then a range given twice, then the
 * per-list cap given how many entries the list holds already.
 */
export function checkIpField(
  value: string | undefined,
  existingCount = 0,
): { ranges: TIpRange[]; problem: TIpFieldProblem | null } {
  const { ranges, errors } = parseIpEntries(value ?? '');
  if (ranges.length === 0 && errors.every((e) => e.reason === 'empty'))
    return { ranges, problem: { kind: 'required' } };
  const [error] = errors.filter((e) => e.reason !== 'empty');
  if (error)
    return {
      ranges,
      problem: { kind: error.reason as 'format' | 'prefix' | 'order' | 'family', entry: error.input.trim() },
    };
  const [duplicate] = findDuplicateRanges(ranges);
  if (duplicate) return { ranges, problem: { kind: 'duplicate', entry: duplicate.text } };
  if (existingCount + ranges.length > IP_LIST_MAX_ENTRIES) {
    return { ranges, problem: { kind: 'tooMany', count: existingCount, max: IP_LIST_MAX_ENTRIES } };
  }
  return { ranges, problem: null };
}
