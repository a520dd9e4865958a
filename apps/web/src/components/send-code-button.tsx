import { useEffect, useState } from 'react';
import { Button, Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_MS } from '@proxy/contract/light';
import type { TCodePurpose } from '@proxy/contract';
import { showSuccess } from '../lib/message';
import { useSendCode } from '../lib/send-code';

type TSendCodeButtonProps = {
  form: FormInstance;
  type: TCodePurpose;
  /** Name of the form's e-mail field (validated before sending). */
  emailField?: string;
};

/**
 * "Send code" button of every form that e-mails a code (register, reset, change e-mail): validates the e-mail,
 * asks for a code, then counts down 60 s before a resend. The wait belongs to the address the code went to:
 * another address in the field ends it.
 */
export function SendCodeButton({ form, type, emailField = 'email' }: TSendCodeButtonProps) {
  const { t } = useTranslation('common');
  const sendCode = useSendCode();
  const [waiting, setWaiting] = useState<{ email: string; seconds: number }>({ email: '', seconds: 0 });
  const watchedEmail: unknown = Form.useWatch(emailField, form);
  const isSameAddress = typeof watchedEmail === 'string' && watchedEmail.trim().toLowerCase() === waiting.email;
  const secondsLeft = isSameAddress ? waiting.seconds : 0;

  useEffect(() => {
    if (!isSameAddress && waiting.seconds > 0) setWaiting({ email: '', seconds: 0 });
  }, [isSameAddress, waiting.seconds]);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setWaiting((w) => ({ ...w, seconds: w.seconds - 1 })), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const handleClick = async () => {
    let email: string;
    try {
      email = (await form.validateFields([emailField]))[emailField];
    } catch {
      return; // the field shows why
    }
    try {
      const answer = await sendCode.mutateAsync({ email, type });
      showSuccess(t('code.sent', { email }));
      const seconds = answer.resend_after > 0 ? answer.resend_after : CODE_RESEND_MS / 1000;
      setWaiting({ email: email.trim().toLowerCase(), seconds });
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <Button onClick={handleClick} loading={sendCode.isPending} disabled={secondsLeft > 0} style={{ minWidth: 120 }}>
      {secondsLeft > 0 ? t('code.resend', { seconds: secondsLeft }) : t('code.send')}
    </Button>
  );
}
