import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TPeriodDays } from '../api/statistics-amount';

/** 7 / 30 / 90 days. */
export function PeriodSwitch({
  value,
  onChange,
  label,
}: {
  value: TPeriodDays;
  onChange: (days: TPeriodDays) => void;
  label: string;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <Segmented<TPeriodDays>
      size="small"
      aria-label={label}
      value={value}
      onChange={onChange}
      options={([7, 30, 90] as const).map((days) => ({ value: days, label: t('charts.days', { count: days }) }))}
    />
  );
}
