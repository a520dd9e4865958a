import { useEffect, useState } from 'react';
import { Button, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_MS } from '@proxy/contract';
import { showError, showSuccess } from '../../../lib/message';
import { useSendEmailChangeCode } from '../api/send-email-code';
import { getErrorMessage } from '../../../lib/server-issues';

/** Sends the change-email code to the form's new address, then counts down 60 s before a resend. */
export function SendCodeButton({ form, emailField = 'email' }: { form: FormInstance; emailField?: string }) {
  const { t } = useTranslation('user-center');
  const sendCode = useSendEmailChangeCode();
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const handleClick = async () => {
    let email: string;
    try {
      email = (await form.validateFields([emailField]))[emailField];
    } catch {
      return;
    }
    try {
      const answer = await sendCode.mutateAsync(email);
      showSuccess(t('code.sent', { email }));
      setSecondsLeft(answer.resend_after > 0 ? answer.resend_after : CODE_RESEND_MS / 1000);
    } catch (error) {
      const reason = getErrorMessage(error);
      showError(reason ? `${t('code.failed')}: ${reason}` : t('code.failed'));
    }
  };

  return (
    <Button onClick={handleClick} loading={sendCode.isPending} disabled={secondsLeft > 0} style={{ minWidth: 120 }}>
      {secondsLeft > 0 ? t('code.resend', { seconds: secondsLeft }) : t('code.send')}
    </Button>
  );
}
