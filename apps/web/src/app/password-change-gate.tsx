import { useState, type ReactNode } from 'react';
import { Button, Card, Flex, Result, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageLoading } from '../components/page-loading';
import { USER_INFO_QUERY_KEY, useUserInfo } from '../entities/users/user-info';
import { PasswordForm } from '../features/users/components/password-form';

/**
 * Stands in front of the signed-in console while the account must choose its own password (the operator's one-time
 * password, printed at the first start: the server refuses every other call until then), then offers two-factor
 * authentication once. Everyone else goes straight through.
 */
export function PasswordChangeGate(props: { children: ReactNode }) {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: user, isLoading } = useUserInfo();
  const [isChanged, setIsChanged] = useState(false);
  if (isLoading) return <PageLoading />;
  if (isChanged)
    return (
      <Flex justify="center" style={{ padding: 24 }}>
        <Result
          status="success"
          title={t('forced.doneTitle')}
          subTitle={t('forced.doneText')}
          data-testid="password-changed-offer"
          extra={[
            <Button
              key="totp"
              type="primary"
              onClick={() => {
                setIsChanged(false);
                navigate('/user-center');
              }}
            >
              {t('forced.setUpTwoFactor')}
            </Button>,
            <Button key="later" onClick={() => setIsChanged(false)}>
              {t('forced.later')}
            </Button>,
          ]}
        />
      </Flex>
    );
  if (!user?.password_change_required) return <>{props.children}</>;
  return (
    <Flex justify="center" style={{ padding: 24 }}>
      <Card title={t('forced.title')} style={{ width: '100%', maxWidth: 520 }} data-testid="password-change-required">
        <Typography.Paragraph>{t('forced.text')}</Typography.Paragraph>
        <PasswordForm
          currentLabel={t('forced.current')}
          onChanged={() => {
            setIsChanged(true);
            void queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
          }}
        />
      </Card>
    </Flex>
  );
}
