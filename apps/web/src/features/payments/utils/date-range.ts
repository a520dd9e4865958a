import type { Dayjs } from 'dayjs';

/** A range of days as a RangePicker holds it. */
export type TDayRange = [Dayjs | null, Dayjs | null] | null | undefined;

/** The `from` (start of the first day, included) and `to` (start of the day after the last, excluded) of a range of days. */
export function dayRangeToQuery(range: TDayRange): { from?: string; to?: string } {
  return {
    from: range?.[0] ? range[0].startOf('day').toISOString() : undefined,
    to: range?.[1] ? range[1].add(1, 'day').startOf('day').toISOString() : undefined,
  };
}
