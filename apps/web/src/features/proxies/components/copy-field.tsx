import { useState } from 'react';
import { Button, Flex, Tooltip, Typography } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { maskSecret } from '../utils/format';

/** Monospace text with a copy button. */
export function CopyText(props: { text: string; label?: string; testId?: string }) {
  const { t } = useTranslation('proxies');
  return (
    <Typography.Text
      copyable={{ text: props.text, tooltips: [t('common:copy.copy'), t('common:copy.copied')] }}
      style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
      data-testid={props.testId}
      aria-label={props.label}
    >
      {props.text}
    </Typography.Text>
  );
}

/** A password shown as dots until revealed, copyable either way. */
export function SecretText(props: { secret: string; label: string }) {
  const { t } = useTranslation('proxies');
  const [isShown, setIsShown] = useState(false);
  return (
    <Flex align="center" gap={2} wrap={false}>
      <Typography.Text
        copyable={{ text: props.secret, tooltips: [t('common:copy.copy'), t('common:copy.copied')] }}
        style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}
        data-testid="secret-text"
      >
        {isShown ? props.secret : maskSecret(props.secret)}
      </Typography.Text>
      <Tooltip title={isShown ? t('actions.hidePassword') : t('actions.showPassword')}>
        <Button
          type="text"
          size="small"
          aria-label={`${isShown ? t('actions.hidePassword') : t('actions.showPassword')} ${props.label}`}
          icon={isShown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          onClick={() => setIsShown(!isShown)}
        />
      </Tooltip>
    </Flex>
  );
}
