import { useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, QRCode, Skeleton, Tag, Typography } from 'antd';
import { DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ERRORS, zTotpCode, zTotpOrRecoveryCode, type TTotpSetup } from '@proxy/contract';
import { downloadBlob } from '../../../lib/api-client';
import { zodRule } from '../../../lib/form-rules';
import { markServerIssues } from '../../../lib/server-issues';
import { useTotpDisable, useTotpEnable, useTotpRegenerate, useTotpSetup, useTotpStatus } from '../api/totp';

type TCodeValues = { code: string };
type TMode = 'idle' | 'disable' | 'regenerate';

/** The recovery codes, shown once: copy or download them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('users');
  const text = codes.join('\n');
  return (
    <Flex vertical gap={12} data-testid="totp-recovery-codes">
      <Alert type="warning" showIcon title={t('totp.recoveryTitle')} description={t('totp.recoveryHint')} />
      <Typography.Paragraph copyable={{ text }} style={{ margin: 0 }}>
        <code style={{ whiteSpace: 'pre', display: 'inline-block' }}>{text}</code>
      </Typography.Paragraph>
      <Flex gap={8}>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => downloadBlob(new Blob([`${text}\n`], { type: 'text/plain' }), 'recovery-codes.txt')}
        >
          {t('totp.download')}
        </Button>
        <Button type="primary" onClick={onDone}>
          {t('totp.saved')}
        </Button>
      </Flex>
    </Flex>
  );
}

/** A one-field code form (a current code, or a recovery code too when `allowRecovery`). */
function CodeForm({
  allowRecovery,
  submitText,
  isDanger,
  isPending,
  onSubmit,
  onCancel,
}: {
  allowRecovery: boolean;
  submitText: string;
  isDanger?: boolean;
  isPending: boolean;
  onSubmit: (code: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<TCodeValues>();
  const handleFinish = async (values: TCodeValues) => {
    try {
      await onSubmit(values.code);
    } catch (error) {
      markServerIssues(form, error, ['code'], { [ERRORS.TOTP_INVALID_CODE.code]: 'code' });
    }
  };
  return (
    <Form<TCodeValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void handleFinish(values)}
    >
      <Form.Item
        name="code"
        label={allowRecovery ? t('totp.codeOrRecovery') : t('totp.code')}
        rules={[zodRule(allowRecovery ? zTotpOrRecoveryCode : zTotpCode)]}
      >
        <Input autoComplete="one-time-code" maxLength={32} style={{ maxWidth: 240 }} />
      </Form.Item>
      <Flex gap={8}>
        <Button type="primary" danger={isDanger} htmlType="submit" loading={isPending}>
          {submitText}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t('totp.cancel')}</Button> : null}
      </Flex>
    </Form>
  );
}

/**
 * Two-factor sign-in in the user centre: enrolment (QR code, the secret as
 * text, a current code), the recovery codes shown once, regenerating them
 * and turning two-factor off.
 */
export function TwoFactorCard() {
  const { t } = useTranslation('users');
  const status = useTotpStatus();
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const disable = useTotpDisable();
  const regenerate = useTotpRegenerate();
  const [pendingSetup, setPendingSetup] = useState<TTotpSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [mode, setMode] = useState<TMode>('idle');

  const title = (
    <Flex gap={8}>
      <SafetyCertificateOutlined />
      {t('totp.title')}
    </Flex>
  );

  let body: React.ReactNode;
  if (status.isPending) {
    body = <Skeleton active paragraph={{ rows: 2 }} />;
  } else if (status.isError) {
    body = <Alert type="warning" showIcon title={t('totp.loadFailed')} />;
  } else if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  } else if (status.data.enabled) {
    body = (
      <Flex vertical gap={12}>
        <Flex gap={8} align="center">
          <Tag color="success">{t('totp.on')}</Tag>
          <Typography.Text type="secondary">
            {t('totp.codesLeft', { count: status.data.recovery_codes_left })}
          </Typography.Text>
        </Flex>
        {mode === 'idle' ? (
          <Flex gap={8}>
            <Button onClick={() => setMode('regenerate')}>{t('totp.regenerate')}</Button>
            <Button danger onClick={() => setMode('disable')}>
              {t('totp.disable')}
            </Button>
          </Flex>
        ) : mode === 'disable' ? (
          <CodeForm
            allowRecovery
            isDanger
            submitText={t('totp.disableConfirm')}
            isPending={disable.isPending}
            onCancel={() => setMode('idle')}
            onSubmit={async (code) => {
              await disable.mutateAsync({ code });
              setMode('idle');
            }}
          />
        ) : (
          <CodeForm
            allowRecovery={false}
            submitText={t('totp.regenerateConfirm')}
            isPending={regenerate.isPending}
            onCancel={() => setMode('idle')}
            onSubmit={async (code) => {
              const result = await regenerate.mutateAsync({ code });
              setMode('idle');
              setRecoveryCodes(result.recovery_codes);
            }}
          />
        )}
      </Flex>
    );
  } else if (pendingSetup) {
    body = (
      <Flex vertical gap={12}>
        <Typography.Text>{t('totp.scan')}</Typography.Text>
        <QRCode
          value={pendingSetup.otpauth_url}
          type="svg"
          size={180}
          bgColor="#ffffff"
          color="#000000"
          errorLevel="M"
        />
        <Typography.Text>
          {t('totp.secretLabel')}{' '}
          <Typography.Text code copyable data-testid="totp-secret">
            {pendingSetup.secret}
          </Typography.Text>
        </Typography.Text>
        <CodeForm
          allowRecovery={false}
          submitText={t('totp.enable')}
          isPending={enable.isPending}
          onCancel={() => setPendingSetup(null)}
          onSubmit={async (code) => {
            const result = await enable.mutateAsync({ code });
            setPendingSetup(null);
            setRecoveryCodes(result.recovery_codes);
          }}
        />
      </Flex>
    );
  } else {
    body = (
      <Flex vertical gap={12} align="flex-start">
        <Tag>{t('totp.off')}</Tag>
        <Button
          type="primary"
          loading={setup.isPending}
          onClick={() => void setup.mutateAsync().then(setPendingSetup, () => undefined)}
        >
          {t('totp.start')}
        </Button>
      </Flex>
    );
  }

  return (
    <Card title={title}>
      <Typography.Paragraph type="secondary">{t('totp.intro')}</Typography.Paragraph>
      {status.data?.admin_required && !status.data.enabled ? (
        <Alert type="error" showIcon title={t('totp.adminRequired')} style={{ marginBottom: 12 }} />
      ) : null}
      {body}
    </Card>
  );
}
