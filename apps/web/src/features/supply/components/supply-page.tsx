import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { SupplyForm } from './supply-form';
import { SupplyHistory } from './supply-history';

/** /proxy/isp/supply-request: the terms, the form with the live fee, and the history (spec sections 2-5). */
export default function SupplyPage() {
  const { t } = useTranslation('supply');
  return (
    <>
      <Card title={t('form.title')}>
        <SupplyForm />
      </Card>
      <SupplyHistory />
    </>
  );
}
