import { DatePicker, Form, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The effective time of a new version as a form holds it: now, or a chosen time. */
export type TEffectiveValues = { when: 'now' | 'later'; at?: Dayjs };

/** The effective_at of a new version: absent for now, else the chosen time in ISO 8601. */
export function effectiveAtOf(values: TEffectiveValues): string | undefined {
  return values.when === 'later' && values.at ? values.at.toISOString() : undefined;
}

/** "Now" or "at a time" and, for the latter, a date and time picker (past days disabled). */
export function EffectiveTimeField() {
  const { t } = useTranslation('admin-pricing');
  const when = Form.useWatch<TEffectiveValues['when'] | undefined>('when');
  return (
    <>
      <Form.Item name="when" label={t('effective')} initialValue="now">
        <Radio.Group
          optionType="button"
          options={[
            { value: 'now', label: t('effectiveNow') },
            { value: 'later', label: t('effectiveLater') },
          ]}
        />
      </Form.Item>
      {when === 'later' && (
        <Form.Item
          name="at"
          label={t('columns.effectiveAt')}
          rules={[{ required: true, message: t('effectiveAtRequired') }]}
        >
          <DatePicker showTime format="YYYY-MM-DD HH:mm" disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
        </Form.Item>
      )}
    </>
  );
}
