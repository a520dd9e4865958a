import { Card, Col, Result, Row, Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../../../entities/users/user-info';
import { AlertSettingsCard } from './alert-settings-card';
import { ApiKeyCard } from './api-key-card';
import { EmailForm } from './email-form';
import { PasswordForm } from './password-form';
import { ProfileCard } from './profile-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';
import { UsageLogCard } from './usage-log-card';
import { UserGuideCard } from './user-guide-card';
import { UsernameForm } from './username-form';

/** /user-center: profile, account settings (username, e-mail, password), the personal API key and the signed-in devices. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { data: user, isPending, isError } = useUserInfo();

  if (isError) return <Result status="warning" title={t('loadFailed')} />;
  if (isPending || !user)
    return (
      <Card>
        <Skeleton active avatar paragraph={{ rows: 6 }} />
      </Card>
    );

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={9} xl={8}>
        <ProfileCard user={user} />
      </Col>
      <Col xs={24} lg={15} xl={16}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card title={t('settings.title')}>
              <Tabs
                items={[
                  {
                    key: 'username',
                    label: t('username.tab'),
                    children: <UsernameForm key={user.name} currentName={user.name} />,
                  },
                  { key: 'email', label: t('email.tab'), children: <EmailForm currentEmail={user.email} /> },
                  { key: 'password', label: t('password.tab'), children: <PasswordForm /> },
                ]}
              />
            </Card>
          </Col>
          <Col span={24}>
            <ApiKeyCard apiKey={user.token} />
          </Col>
          <Col span={24}>
            <TwoFactorCard />
          </Col>
          <Col span={24}>
            <SessionsCard />
          </Col>
          <Col span={24}>
            <AlertSettingsCard />
          </Col>
          <Col span={24}>
            <UsageLogCard />
          </Col>
          <Col span={24}>
            <UserGuideCard />
          </Col>
        </Row>
      </Col>
    </Row>
  );
}
