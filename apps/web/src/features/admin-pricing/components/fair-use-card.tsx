import { Button, Card, Form, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FAIR_USE_GB_PER_DAY_MAX, zFairUseGbPerDay } from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { zodRule } from '../../../lib/form-rules';
import { showSuccess } from '../../../lib/message';
import { useAdminSystemSettings, useSetFairUse } from '../api/admin-pricing';
import { markIssues } from './price-dialogs';

type TFairUseForm = { gb?: number | null };

/**
 * The fair-use traffic of IP-billed dynamic proxies, GB per day (0: off, the default): proxies bought or renewed
 * while it is on include it for their days and may use upstream pools (docs/operator-guide.md).
 */
export function FairUseCard() {
  const { t } = useTranslation('admin-pricing');
  const settings = useAdminSystemSettings();
  const save = useSetFairUse();
  const [form] = Form.useForm<TFairUseForm>();
  // On a phone the label stands above the field, so that nothing is wider than the screen.
  const isPhone = useIsPhone();
  const current = settings.data?.ip_dynamic_fair_use_gb_per_day;

  const handleFinish = async (values: TFairUseForm) => {
    try {
      const saved = await save.mutateAsync(values.gb ?? 0);
      const gb = saved.ip_dynamic_fair_use_gb_per_day;
      showSuccess(gb > 0 ? t('fairUse.savedOn', { gb }) : t('fairUse.savedOff'));
    } catch (error) {
      markIssues(form, error, { ip_dynamic_fair_use_gb_per_day: 'gb' });
    }
  };

  return (
    <Card title={t('fairUse.title')}>
      <Typography.Paragraph type="secondary">{t('fairUse.hint')}</Typography.Paragraph>
      <Form<TFairUseForm>
        form={form}
        layout={isPhone ? 'vertical' : 'inline'}
        key={current ?? 'none'}
        initialValues={{ gb: current ?? 0 }}
        onFinish={(values) => void handleFinish(values)}
      >
        {/* No min/max/precision: a value out of bounds is refused with the reason, never silently changed. */}
        <Form.Item
          name="gb"
          label={t('fairUse.label')}
          rules={[zodRule(zFairUseGbPerDay)]}
          extra={t('fairUse.bounds', { max: FAIR_USE_GB_PER_DAY_MAX })}
        >
          <InputNumber step={0.1} suffix={t('fairUse.unit')} style={{ width: 200, maxWidth: '100%' }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="fair-use-save">
            {t('fairUse.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
