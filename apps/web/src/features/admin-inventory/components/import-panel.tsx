import { useState } from 'react';
import { Alert, Button, Flex, Input, Radio, Table, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { INVENTORY_CSV_MAX_CHARS, type TInventoryImportResult } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { useImportInventory } from '../api/import';
import { refreshInventory } from '../api/inventory';

type TKind = 'residential' | 'datacenter';

/**
 * The import tab of /admin/inventory: upstream proxies in the CSV format of
 * `npm run inventory:import` (one `host:port[:user:pass],country[,state,city]`
 * per line), pasted or read from a file; "Check" lists the bad lines by
 * number, "Import" adds the exits (a bad line imports nothing).
 */
export function ImportPanel() {
  const { t } = useTranslation('admin-inventory');
  const [csv, setCsv] = useState('');
  const [kind, setKind] = useState<TKind>('residential');
  const [result, setResult] = useState<{ result: TInventoryImportResult; isDry: boolean } | null>(null);
  const run = useImportInventory();

  const submit = async (isDry: boolean) => {
    const answer = await run.mutateAsync({ csv, kind, dry_run: isDry }).catch(() => null);
    if (!answer) return;
    setResult({ result: answer, isDry });
    if (!isDry && answer.errors.length === 0) void refreshInventory();
    if (!isDry && answer.errors.length === 0)
      showSuccess(t('imported', { imported: answer.imported, duplicates: answer.duplicates }));
  };

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('format')} <Typography.Text code>1.2.3.4:8080:user:pass,us,ca,los angeles</Typography.Text>
      </Typography.Paragraph>
      <Radio.Group
        optionType="button"
        value={kind}
        onChange={(e) => setKind(e.target.value as TKind)}
        options={[
          { value: 'residential', label: t('kinds.residential') },
          { value: 'datacenter', label: t('kinds.datacenter') },
        ]}
      />
      <Upload
        accept=".csv,.txt,text/csv,text/plain"
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then((text) => setCsv(text));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('readFile')}</Button>
      </Upload>
      <Input.TextArea
        aria-label={t('csv')}
        placeholder={t('csvPlaceholder')}
        value={csv}
        maxLength={INVENTORY_CSV_MAX_CHARS}
        onChange={(e) => {
          setCsv(e.target.value);
          setResult(null);
        }}
        autoSize={{ minRows: 8, maxRows: 20 }}
        style={{ fontFamily: 'monospace' }}
      />
      <Flex gap={8}>
        <Button
          onClick={() => void submit(true)}
          loading={run.isPending}
          disabled={csv.trim() === ''}
          data-testid="inventory-check"
        >
          {t('check')}
        </Button>
        <Button
          type="primary"
          onClick={() => void submit(false)}
          loading={run.isPending}
          disabled={csv.trim() === ''}
          data-testid="inventory-import"
        >
          {t('import')}
        </Button>
      </Flex>
      {result && result.result.errors.length === 0 && (
        <Alert
          type="success"
          showIcon
          data-testid="inventory-result"
          title={
            result.isDry
              ? t('checked', { valid: result.result.valid })
              : t('imported', { imported: result.result.imported, duplicates: result.result.duplicates })
          }
        />
      )}
      {result && result.result.errors.length > 0 && (
        <Flex vertical gap={8} data-testid="inventory-errors">
          <Alert type="error" showIcon title={t('badLines', { count: result.result.errors.length })} />
          <Table
            rowKey="line"
            size="small"
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            dataSource={result.result.errors}
            columns={[
              { title: t('line'), dataIndex: 'line', width: 90 },
              { title: t('problem'), dataIndex: 'message' },
            ]}
          />
        </Flex>
      )}
    </Flex>
  );
}
