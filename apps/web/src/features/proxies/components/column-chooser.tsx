import { Button, Checkbox, Flex, Popover, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { KEY_COLUMNS, PROXY_COLUMN_KEYS, type TProxyColumnKey } from '../hooks/use-column-choice';
import { useColumnTitles } from './proxy-columns';

/** A "Choose columns" button that opens the list of columns to tick; the key columns stay ticked. */
export function ColumnChooser(props: { visible: TProxyColumnKey[]; onChange: (visible: TProxyColumnKey[]) => void }) {
  const { t } = useTranslation('proxies');
  const titles = useColumnTitles();
  const content = (
    <Flex vertical gap={8} data-testid="column-chooser">
      <Checkbox.Group<TProxyColumnKey> value={props.visible} onChange={props.onChange}>
        <Flex vertical gap={4}>
          {PROXY_COLUMN_KEYS.map((key) => (
            <Checkbox key={key} value={key} disabled={KEY_COLUMNS.includes(key)}>
              {titles[key]}
            </Checkbox>
          ))}
        </Flex>
      </Checkbox.Group>
      <Typography.Text type="secondary" style={{ fontSize: 12, maxWidth: 200 }}>
        {t('columns.keyHint')}
      </Typography.Text>
    </Flex>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('columns.title')} content={content}>
      {/* The visible text is the button's whole name (one wording for eyes and screen readers). */}
      <Button icon={<SettingOutlined />}>{t('columns.choose')}</Button>
    </Popover>
  );
}
