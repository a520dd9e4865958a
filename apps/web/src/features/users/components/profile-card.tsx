import { Avatar, Card, Descriptions, Flex, Statistic, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatYuan, type TUserInfo } from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';

/** Who the user is and what they hold: name, e-mail, id, invite code, balance and total recharge. */
export function ProfileCard({ user }: { user: TUserInfo }) {
  const { t } = useTranslation('users');
  return (
    <Card>
      <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
        {/* No avatar upload yet: the spec's avatar is empty by default. */}
        <Avatar size={72} src={user.avatar || undefined} icon={<UserOutlined />} />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {user.name}
        </Typography.Title>
        <Typography.Text type="secondary">{user.email}</Typography.Text>
        <Tag color={user.status === 'active' ? 'success' : 'error'}>{t(`profile.status.${user.status}`)}</Tag>
      </Flex>
      <Flex justify="space-around" style={{ marginBottom: 16 }}>
        <Statistic title={t('profile.balance')} value={formatYuan(user.balance)} />
        <Statistic title={t('profile.totalRecharge')} value={formatYuan(user.total_balance)} />
      </Flex>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'id', label: t('profile.userId'), children: user.user_id },
          {
            key: 'invite',
            label: t('profile.inviteCode'),
            children: (
              <Typography.Text copyable={{ tooltips: [t('common:copy.copy'), t('common:copy.copied')] }}>
                {user.invite_code}
              </Typography.Text>
            ),
          },
          { key: 'frozen', label: t('profile.frozen'), children: formatYuan(user.frozen_balance) },
          { key: 'created', label: t('profile.createdAt'), children: formatDateTimeMinutes(user.created_at) },
        ]}
      />
    </Card>
  );
}
