import { Button, Result } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROLE_USER_THRESHOLD_YUAN, formatYuan } from '@proxy/contract';
import { useUserInfo } from '../../../entities/users/user-info';

/** Why a user without the role "user" cannot download the software, and the way to /charge (spec section 6). */
export default function DownloadsRefusal() {
  const { t } = useTranslation('downloads');
  const { data } = useUserInfo();
  return (
    <Result
      icon={<LockOutlined />}
      title={t('refusal.title')}
      subTitle={
        <span data-testid="software-refusal">
          {t('refusal.reason', { threshold: ROLE_USER_THRESHOLD_YUAN })}
          {data ? ` ${t('refusal.total', { total: formatYuan(data.total_balance) })}` : ''}
        </span>
      }
      extra={
        <Link to="/charge">
          <Button type="primary">{t('refusal.topUp')}</Button>
        </Link>
      }
    />
  );
}
