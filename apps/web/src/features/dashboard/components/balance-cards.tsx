import { Alert, Button, Card, Col, Flex, Row, Skeleton, Statistic, Tooltip, theme } from 'antd';
import { GiftOutlined, LockOutlined, QuestionCircleOutlined, ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TRIAL_CREDIT_FEN, fenToYuan, formatYuan } from '@proxy/contract';
import { refreshBalance, useUserInfo } from '../../../entities/users/user-info';
import { showSuccess } from '../../../lib/message';

/** Available balance (with a "Top up" link to /charge), frozen balance, the trial credit and its note. */
export function BalanceCards() {
  const { t } = useTranslation('dashboard');
  const { token } = theme.useToken();
  const { data: user, isPending, isFetching } = useUserInfo();
  const trialYuan = fenToYuan(TRIAL_CREDIT_FEN);

  const handleRefresh = async () => {
    if (await refreshBalance()) showSuccess(t('balance.refreshed'));
  };

  if (isPending || !user) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );
  }

  const hasTrial = user.trial_credit > 0;
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card
            extra={
              <Flex gap={4} align="center">
                <Link to="/charge" data-testid="top-up-link">
                  <Button type="primary" size="small" ghost tabIndex={-1}>
                    {t('balance.topUp')}
                  </Button>
                </Link>
                <Tooltip title={t('balance.refresh')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ReloadOutlined spin={isFetching} />}
                    onClick={() => void handleRefresh()}
                    aria-label={t('balance.refresh')}
                  />
                </Tooltip>
              </Flex>
            }
            title={
              <>
                <WalletOutlined /> {t('balance.available')}
              </>
            }
          >
            <Statistic
              value={formatYuan(user.balance)}
              styles={{ content: { color: token.colorPrimaryText, fontWeight: 600 } }}
            />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card
            title={
              <>
                <LockOutlined /> {t('balance.frozen')}
              </>
            }
            extra={
              <Tooltip title={t('balance.frozenNote')}>
                <QuestionCircleOutlined aria-label={t('balance.frozenNote')} />
              </Tooltip>
            }
          >
            <Statistic value={formatYuan(user.frozen_balance)} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card
            title={
              <>
                <GiftOutlined /> {t('balance.trial')}
              </>
            }
          >
            <Statistic value={formatYuan(user.trial_credit)} />
          </Card>
        </Col>
      </Row>
      <Alert
        style={{ marginTop: 16 }}
        type={hasTrial ? 'success' : 'info'}
        showIcon
        title={hasTrial ? t('trial.granted', { amount: trialYuan }) : t('trial.rule', { amount: trialYuan })}
      />
    </>
  );
}
