import type { ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../lib/clipboard';

type TCopyButtonProps = {
  /** What to copy. */
  text: string;
  /** Toast after copying ("Copied" unless told). */
  successMessage?: string;
  /** Label ("Copy" unless told). */
  children?: ReactNode;
} & Pick<ButtonProps, 'disabled' | 'size'>;

/** A button that copies text and says whether it worked. */
export function CopyButton({ text, successMessage, children, ...buttonProps }: TCopyButtonProps) {
  const { t } = useTranslation('common');
  return (
    <Button icon={<CopyOutlined />} onClick={() => void copyToClipboard(text, successMessage)} {...buttonProps}>
      {children ?? t('copy.copy')}
    </Button>
  );
}
