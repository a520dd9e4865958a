import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@proxy/contract/light';
import type { TSession, TTotpChallenge } from '@proxy/contract';
import { markServerIssues } from '../../../lib/server-issues';
import { loginTotp } from '../api/login-totp';
import { AuthButton, Field } from '../ui/fields';
import { Icon } from '../ui/icons';
import { lazyZodCheck, useLightForm } from '../ui/light-form';

const CODE_RULES = { code: [lazyZodCheck((c) => c.zTotpOrRecoveryCode)] };

type TTotpStepProps = {
  /** The first step's answer (challenge). */
  step: TTotpChallenge;
  /** Called with the session once the code is accepted. */
  onSession: (session: TSession) => void;
  /** Back to the sign-in form (another account, or the challenge expired). */
  onCancel: () => void;
};

/**
 * The second step of a sign-in when the account has two-factor on: a
 * 6-digit code from the authenticator app, or one of the recovery codes.
 * Loaded lazily by the sign-in pages, so their first load does not carry it.
 */
export default function TotpStep({ step, onSession, onCancel }: TTotpStepProps) {
  const { t } = useTranslation('auth');
  const form = useLightForm({ rules: CODE_RULES });
  const [isPending, setIsPending] = useState(false);
  const [isExpired, setIsExpired] = useState(false);

  const handleFinish = async (values: Record<string, string>) => {
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
    <div className="auth-stack" style={{ gap: 16 }}>
      <h2 className="auth-title" style={{ margin: 0, fontSize: 20 }}>
        <Icon name="safety" /> {t('totp.title')}
      </h2>
      <p className="auth-subtitle" style={{ margin: 0 }}>
        {t('totp.hint')}
      </p>
      {isExpired ? (
        <div className="auth-alert" role="alert">
          {t('totp.expired')}
        </div>
      ) : null}
      <form className="auth-form" noValidate onSubmit={form.onSubmit(handleFinish)}>
        <Field
          form={form}
          name="code"
          label={t('totp.code')}
          extra={t('totp.recoveryHelp')}
          autoFocus
          autoComplete="one-time-code"
          inputMode="text"
          maxLength={32}
          placeholder={t('totp.placeholder')}
        />
        <AuthButton type="submit" variant="primary" isBlock isLoading={isPending}>
          {t('totp.submit')}
        </AuthButton>
      </form>
      <AuthButton variant="link" onClick={onCancel}>
        {t('totp.back')}
      </AuthButton>
    </div>
  );
}
