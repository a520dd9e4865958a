import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TProxyToken } from '@proxy/contract';
import { formatBytesTrimmed } from '../../../lib/format';
import { useTokenUncharged } from '../api/token-uncharged';

/** "Not charged: X (lost before the target answered)" under a proxy's usage, when some of its bytes were not charged. */
export function UnchargedNote({ token }: { token: TProxyToken }) {
  const { t } = useTranslation('proxies');
  const uncharged = useTokenUncharged(token.token_id, token.created_at);
  if (!uncharged.data) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="detail-not-charged">
      {t('detail.notCharged', { bytes: formatBytesTrimmed(uncharged.data) })}
    </Typography.Text>
  );
}
