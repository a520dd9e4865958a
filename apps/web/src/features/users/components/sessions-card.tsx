import { Alert, Button, Card, Divider, Flex, Popconfirm, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { DesktopOutlined, LaptopOutlined, LogoutOutlined, MobileOutlined } from '@ant-design/icons';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSessionInfo } from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';
import { confirmAction, showSuccess } from '../../../lib/message';
import { useEndSession } from '../api/end-session';
import { useLogoutEverywhere } from '../api/logout-everywhere';
import { useUserSessions } from '../api/user-sessions';
import { describeUserAgent } from '../../../lib/user-agent';

/** This browser's session first, the others in the server's order (newest first). */
function currentFirst(sessions: TSessionInfo[]): TSessionInfo[] {
  return [...sessions.filter((s) => s.is_current), ...sessions.filter((s) => !s.is_current)];
}

/** One session: device, address, sign-in method and times; "End" for the other devices. */
function SessionRow({ session }: { session: TSessionInfo }) {
  const { t } = useTranslation('users');
  const endSession = useEndSession();
  const device = describeUserAgent(session.user_agent);
  const deviceName = [device.browser, device.os].filter(Boolean).join(' · ') || t('sessions.unknownDevice');
  const Icon = device.isMobile ? MobileOutlined : device.os ? LaptopOutlined : DesktopOutlined;

  // The request layer has toasted a failure; the list reloads either way.
  const handleEnd = () =>
    endSession.mutateAsync(session.id).then(
      () => showSuccess(t('sessions.ended')),
      () => undefined,
    );

  return (
    <Flex gap={12} align="center" data-testid={`session-${session.id}`}>
      <Icon style={{ fontSize: 24 }} />
      <Flex vertical flex={1} style={{ minWidth: 0 }}>
        <Flex gap={8} align="center" wrap>
          <Tooltip title={session.user_agent || undefined}>
            <Typography.Text strong>{deviceName}</Typography.Text>
          </Tooltip>
          {session.is_current && <Tag color="success">{t('sessions.current')}</Tag>}
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {[
            t('sessions.address', { ip: session.ip || '-' }),
            t('sessions.signedInWith', { method: t(`sessions.method.${session.method}`) }),
            t('sessions.createdAt', { time: formatDateTimeMinutes(session.created_at) }),
            t('sessions.lastUsedAt', { time: formatDateTimeMinutes(session.last_used_at) }),
          ].join(' · ')}
        </Typography.Text>
      </Flex>
      {!session.is_current && (
        <Popconfirm
          title={t('sessions.endConfirm')}
          okText={t('sessions.endOk')}
          cancelText={t('common:actions.cancel')}
          okButtonProps={{ danger: true }}
          // eslint-disable-next-line @typescript-eslint/no-misused-promises -- antd's Popconfirm awaits it (OK spins until it settles), though typed void; it settles its own failures
          onConfirm={handleEnd}
        >
          <Button
            size="small"
            danger
            loading={endSession.isPending}
            aria-label={t('sessions.endLabel', { device: deviceName })}
          >
            {t('sessions.end')}
          </Button>
        </Popconfirm>
      )}
    </Flex>
  );
}

/** The user's signed-in devices (GET /user/sessions), with "End" per other device and "Sign out everywhere". */
export function SessionsCard() {
  const { t } = useTranslation('users');
  const sessions = useUserSessions();
  const logoutEverywhere = useLogoutEverywhere();

  const handleSignOutAll = () =>
    confirmAction({
      title: t('sessions.signOutAllConfirm'),
      content: t('sessions.signOutAllContent'),
      okText: t('sessions.signOutAll'),
      isDanger: true,
      // The request layer has toasted a failure; the user stays signed in and may try again.
      onOk: () => logoutEverywhere.mutateAsync().catch(() => undefined),
    });

  return (
    <Card
      title={
        <Flex gap={8}>
          <LaptopOutlined />
          {t('sessions.title')}
        </Flex>
      }
      extra={
        <Button danger icon={<LogoutOutlined />} onClick={handleSignOutAll} loading={logoutEverywhere.isPending}>
          {t('sessions.signOutAll')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('sessions.intro')}</Typography.Paragraph>
      {sessions.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : sessions.isError ? (
        <Alert
          type="warning"
          showIcon
          title={t('sessions.loadFailed')}
          action={
            <Button size="small" onClick={() => void sessions.refetch()}>
              {t('common:actions.reload')}
            </Button>
          }
        />
      ) : (
        currentFirst(sessions.data).map((session, index) => (
          <Fragment key={session.id}>
            {index > 0 && <Divider style={{ margin: '12px 0' }} />}
            <SessionRow session={session} />
          </Fragment>
        ))
      )}
    </Card>
  );
}
