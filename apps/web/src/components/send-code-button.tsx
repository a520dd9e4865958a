import { Button, Form, type FormInstance } from 'antd';
import type { TCodePurpose } from '@proxy/contract';
import { useCodeSender } from '../lib/send-code';

type TSendCodeButtonProps = {
  form: FormInstance;
  type: TCodePurpose;
  /** Name of the form's e-mail field (validated before sending). */
  emailField?: string;
};

/**
 * "Send code" button of the signed-in forms that e-mail a code (change e-mail; the sign-in pages
 * have their own plain one, features/auth/ui): validates the e-mail, asks for a code, then waits
 * before a resend, per address (useCodeSender).
 */
export function SendCodeButton({ form, type, emailField = 'email' }: TSendCodeButtonProps) {
  const sender = useCodeSender(type, Form.useWatch(emailField, form));

  const handleClick = async () => {
    let email: string;
    try {
      email = (await form.validateFields([emailField]))[emailField];
    } catch {
      return; // the field shows why
    }
    await sender.send(email);
  };

  return (
    <Button
      onClick={() => void handleClick()}
      loading={sender.isSending}
      disabled={sender.isWaiting}
      style={{ minWidth: 120 }}
    >
      {sender.label}
    </Button>
  );
}
