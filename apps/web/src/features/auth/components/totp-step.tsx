import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@proxy/contract/light';
import type { TSession, TTotpChallenge } from '@proxy/contract';
import { lazyZodRule } from '../../../lib/form-rules';
import { markServerIssues } from '../../../lib/server-issues';
import { loginTotp } from '../api/login-totp';

type TTotpStepProps = {
  /** The first step's answer (challenge). */
  step: TTotpChallenge;
  /** Called with the session once the code is accepted. */
  onSession: (session: TSession) => void;
  /** Back to the sign-in form (another account, or the challenge expired). */
  onCancel: () => void;
};

type TCodeValues = { code: string };

/**
 * The second step of a sign-in when the account has two-factor on: a
 * 6-digit code from the authenticator app, or one of the recovery codes.
 * Loaded lazily by the sign-in pages, so their first load does not carry it.
 */
export default function TotpStep({ step, onSession, onCancel }: TTotpStepProps) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<TCodeValues>();
  const [isPending, setIsPending] = useState(false);
  const [isExpired, setIsExpired] = useState(false);

  const handleFinish = async (values: TCodeValues) => {
    setIsPending(true);
    try {
      // The form's rule checked the code (and loaded the schemas); it goes as the contract normalises it (no spaces, lower case).
      const { zTotpOrRecoveryCode } = await import('../../../lib/form-schemas');
      onSession(await loginTotp({ challenge: step.challenge, code: zTotpOrRecoveryCode.parse(values.code) }));
    } catch (error) {
      if ((error as { code?: number } | null)?.code === ERRORS.TOTP_CHALLENGE_EXPIRED.code) setIsExpired(true);
      markServerIssues(form, error, ['code'], { [ERRORS.TOTP_INVALID_CODE.code]: 'code' });
    } finally {
      setIsPending(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        <SafetyOutlined /> {t('totp.title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('totp.hint')}</Typography.Text>
      {isExpired ? <Alert type="warning" showIcon title={t('totp.expired')} /> : null}
      <Form<TCodeValues> form={form} layout="vertical" requiredMark={false} onFinish={handleFinish} size="large">
        <Form.Item name="code" label={t('totp.code')} rules={[lazyZodRule((c) => c.zTotpOrRecoveryCode)]} extra={t('totp.recoveryHelp')}>
          <Input autoFocus autoComplete="one-time-code" inputMode="text" maxLength={32} placeholder={t('totp.placeholder')} />
        </Form.Item>
        <Form.Item style={{ marginBottom: 8 }}>
          <Button type="primary" htmlType="submit" block loading={isPending}>
            {t('totp.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Button type="link" onClick={onCancel}>
        {t('totp.back')}
      </Button>
    </Flex>
  );
}
