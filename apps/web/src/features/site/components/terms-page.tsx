import { useMemo } from 'react';
import { Button, Card, Result, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { resolveLang } from '@proxy/contract/light';
import { ApiError } from '../../../lib/api-client';
import { formatLongDate } from '../../../lib/format';
import { useTerms } from '../api/terms';
import { renderMarkdown } from './markdown';

/**
 * /terms: the terms of service (spec sections 1, 6 and 9) in the interface
 * language, the operator's text (DATA_DIR/terms) or the shipped one.
 */
export default function TermsPage() {
  const { t, i18n } = useTranslation('site');
  const { data, error, isPending, refetch } = useTerms();
  const html = useMemo(() => (data ? renderMarkdown(data.markdown) : ''), [data]);

  if (isPending) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (error) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        subTitle={error instanceof ApiError ? error.msg : undefined}
        extra={<Button onClick={() => void refetch()}>{t('retry')}</Button>}
      />
    );
  }
  return (
    <Card>
      <Typography>
        <div className="terms-text" data-testid="terms-text" dangerouslySetInnerHTML={{ __html: html }} />
      </Typography>
      {data.updated_at ? (
        <Typography.Text type="secondary">
          {t('updatedAt', { date: formatLongDate(data.updated_at, resolveLang(i18n.language)) })}
        </Typography.Text>
      ) : null}
    </Card>
  );
}
