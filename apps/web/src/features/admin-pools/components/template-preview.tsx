import { useState } from 'react';
import { Alert, Flex, Input, InputNumber, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  compilePoolTemplate,
  createAreaSpeller,
  errorMessage,
  renderPoolUsername,
  validationMessage,
  type TLang,
  type TPoolAreaSpelling,
  type TPoolUsernameResult,
} from '@proxy/contract';
import { getLanguage } from '../../../lib/i18n';

// A sample pool session id (the API makes the real one per session, of the template's length).
const SAMPLE_SESSION = 'k3x9q2m1a0bz7c5d8e4f6g2h1j0k9l8m';

// An area name as the API stores it (inventory's slugs): lower case, blanks removed ("Los Angeles" -> "losangeles").
const toSlug = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '');

/** Why a username cannot be made, in the API's own words (the check answers these refusals). */
function renderProblem(result: Exclude<TPoolUsernameResult, { ok: true }>, value: string, lang: TLang): string {
  if (result.reason === 'missing')
    return errorMessage('POOL_USERNAME_MISSING', lang, { placeholder: `{${result.placeholder}}` });
  if (result.reason === 'separator' || result.reason === 'refused-character')
    return errorMessage('POOL_USERNAME_SEPARATOR', lang, {
      placeholder: `{${result.placeholder}}`,
      value,
      char: `"${result.char}"`,
    });
  return errorMessage('POOL_USERNAME_TOO_LONG', lang);
}

/**
 * The username the template makes for a sample area and session, as the user types: the contract's template module
 * (the one the API and the gateway render with), the pool's area case and its imported spellings.
 */
export function TemplatePreview(props: {
  template: string | undefined;
  user: string | undefined;
  areaCase: 'lower' | 'upper' | undefined;
  mapping: readonly TPoolAreaSpelling[];
}) {
  const { t } = useTranslation('admin-pools');
  const lang = getLanguage();
  const [area, setArea] = useState({ country: 'us', state: 'california', city: 'losangeles' });
  const [isSticky, setIsSticky] = useState(true);
  const [minutes, setMinutes] = useState(10);

  const compiled = compilePoolTemplate((props.template ?? '').trim());
  let shown: { ok: true; username: string } | { ok: false; text: string };
  if (!compiled.ok) shown = { ok: false, text: t('preview.invalid') };
  else if (!props.user?.trim()) shown = { ok: false, text: t('preview.noUser') };
  else {
    const slugs = { country: toSlug(area.country), state: toSlug(area.state), city: toSlug(area.city) };
    const spelled = createAreaSpeller({ areaCase: props.areaCase ?? 'lower', mapping: props.mapping })(slugs);
    const values = {
      user: props.user.trim(),
      ...spelled,
      session: isSticky ? SAMPLE_SESSION.slice(0, compiled.template.sessionLength) : '',
      minutes: isSticky ? minutes : undefined,
    };
    const result = renderPoolUsername(compiled.template, values);
    const valueAt = (placeholder: string) =>
      placeholder === 'user' ? values.user : String(values[placeholder as keyof typeof values] ?? '');
    shown = result.ok
      ? result
      : { ok: false, text: renderProblem(result, 'placeholder' in result ? valueAt(result.placeholder) : '', lang) };
  }

  const field = (name: keyof typeof area, width: number) => (
    <Input
      aria-label={t(`preview.${name}`)}
      placeholder={t(`preview.${name}`)}
      value={area[name]}
      maxLength={64}
      style={{ width }}
      onChange={(e) => setArea({ ...area, [name]: e.target.value })}
    />
  );

  return (
    <Flex vertical gap={8} data-testid="template-preview" style={{ marginBottom: 24 }}>
      <Typography.Text strong>{t('preview.title')}</Typography.Text>
      <Flex gap={8} wrap align="center">
        {field('country', 70)}
        {field('state', 130)}
        {field('city', 130)}
        <Flex gap={6} align="center">
          <Switch size="small" checked={isSticky} onChange={setIsSticky} aria-label={t('preview.session')} />
          <Typography.Text>{t('preview.session')}</Typography.Text>
        </Flex>
        {isSticky && (
          <InputNumber<number>
            aria-label={t('preview.minutes')}
            min={1}
            max={120}
            precision={0}
            value={minutes}
            onChange={(v) => setMinutes(v ?? 10)}
            style={{ width: 90 }}
          />
        )}
      </Flex>
      {shown.ok ? (
        <Flex vertical gap={2}>
          <Typography.Text type="secondary">{t('preview.username')}</Typography.Text>
          <Typography.Text code copyable data-testid="template-preview-username" style={{ wordBreak: 'break-all' }}>
            {shown.username}
          </Typography.Text>
          {isSticky && compiled.ok && compiled.template.placeholders.has('session') && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('preview.sessionNote')}
            </Typography.Text>
          )}
        </Flex>
      ) : (
        <Alert type="warning" showIcon title={shown.text} data-testid="template-preview-problem" />
      )}
    </Flex>
  );
}

/** A template's first problem in the user's language (the API's own message for it), or null. */
export function templateProblem(template: string): string | null {
  const compiled = compilePoolTemplate(template.trim());
  return compiled.ok ? null : validationMessage(compiled.problem.message, getLanguage(), compiled.problem.params);
}
