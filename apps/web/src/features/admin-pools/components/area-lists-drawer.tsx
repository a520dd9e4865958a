import { useState } from 'react';
import { Button, Drawer, Empty, Flex, Input, Radio, Spin, Tabs, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { POOL_CSV_MAX_CHARS, type TPool, type TPoolDetail } from '@proxy/contract';
import { useIsPhone } from '../../../components/use-is-phone';
import { showSuccess } from '../../../lib/message';
import { getErrorMessage, getServerIssues } from '../../../lib/server-issues';
import { usePool, useSetPoolAreaMapping, useSetPoolCoverage } from '../api/pools';
import { RefusedLinesAlert } from '../../../components/refused-lines-alert';

// A list as the CSV it was imported from (slugs; the import takes names or slugs alike).
const coverageCsv = (detail: TPoolDetail) =>
  detail.coverage.map((a) => [a.country, a.state, a.city].filter(Boolean).join(',')).join('\n');
const mappingCsv = (detail: TPoolDetail) =>
  detail.area_mapping.map((m) => [m.country, m.state, m.city, m.spelling].join(',')).join('\n');

/** The problems of a refused import, each as the API words it ("Line 2: ..."), in the operator's language. */
function CsvProblems({ error }: { error: unknown }) {
  const { t } = useTranslation('admin-pools');
  if (!error) return null;
  const issues = getServerIssues(error);
  const messages = issues.length > 0 ? issues.map((i) => i.message) : [getErrorMessage(error)];
  return (
    <RefusedLinesAlert
      title={t('areas.badLines', { count: messages.length })}
      messages={messages}
      testId="csv-errors"
    />
  );
}

/** Paste or read a CSV file into a text area. */
function CsvInput(props: { label: string; value: string; onChange: (text: string) => void }) {
  const { t } = useTranslation('admin-pools');
  return (
    <>
      <Upload
        accept=".csv,.txt,text/csv,text/plain"
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then(props.onChange);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('areas.readFile')}</Button>
      </Upload>
      <Input.TextArea
        aria-label={props.label}
        placeholder={t('areas.csvPlaceholder')}
        value={props.value}
        maxLength={POOL_CSV_MAX_CHARS}
        onChange={(e) => props.onChange(e.target.value)}
        autoSize={{ minRows: 8, maxRows: 20 }}
        style={{ fontFamily: 'monospace' }}
      />
    </>
  );
}

// The panels start from the lists as loaded, and keep what the operator types (a refetch after a save leaves it).
function CoveragePanel({ pool, detail }: { pool: TPool; detail: TPoolDetail }) {
  const { t } = useTranslation('admin-pools');
  const save = useSetPoolCoverage();
  const [mode, setMode] = useState(detail.coverage_mode);
  const [csv, setCsv] = useState(() => coverageCsv(detail));

  const submit = async () => {
    const saved = await save.mutateAsync({ id: pool.id, mode, csv: mode === 'list' ? csv : '' }).catch(() => null);
    if (!saved) return;
    const summary =
      saved.coverage_mode === 'all' ? t('coverage.all') : t('coverage.list', { count: saved.coverage_count });
    showSuccess(t('areas.savedCoverage', { summary }));
  };

  return (
    <Flex vertical gap={12}>
      <Radio.Group
        optionType="button"
        value={mode}
        onChange={(e) => {
          setMode(e.target.value as TPool['coverage_mode']);
          save.reset();
        }}
        options={[
          { value: 'all', label: t('areas.modeAll') },
          { value: 'list', label: t('areas.modeList') },
        ]}
      />
      {mode === 'list' && (
        <>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('areas.coverageFormat')} <Typography.Text code>us,California</Typography.Text>
          </Typography.Paragraph>
          <CsvInput
            label={t('areas.coverageCsv')}
            value={csv}
            onChange={(text) => {
              setCsv(text);
              save.reset();
            }}
          />
        </>
      )}
      <CsvProblems error={save.error} />
      <Flex>
        <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="coverage-save">
          {t('areas.save')}
        </Button>
      </Flex>
    </Flex>
  );
}

function SpellingsPanel({ pool, detail }: { pool: TPool; detail: TPoolDetail }) {
  const { t } = useTranslation('admin-pools');
  const save = useSetPoolAreaMapping();
  const [csv, setCsv] = useState(() => mappingCsv(detail));

  const submit = async () => {
    const saved = await save.mutateAsync({ id: pool.id, csv }).catch(() => null);
    if (saved) showSuccess(t('areas.savedSpellings', { count: saved.area_mapping_count }));
  };

  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('areas.spellingsFormat')} <Typography.Text code>us,California,,us_california</Typography.Text>
      </Typography.Paragraph>
      <CsvInput
        label={t('areas.spellingsCsv')}
        value={csv}
        onChange={(text) => {
          setCsv(text);
          save.reset();
        }}
      />
      <CsvProblems error={save.error} />
      <Flex>
        <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="spellings-save">
          {t('areas.save')}
        </Button>
      </Flex>
    </Flex>
  );
}

/**
 * A pool's coverage (every country, or a list) and its area spellings, each imported as CSV pasted or read from a
 * file; the current lists are filled in. A refused import changes nothing and lists the API's line-numbered problems.
 */
export function AreaListsDrawer(props: { pool: TPool | null; onClose: () => void }) {
  const { pool, onClose } = props;
  const { t } = useTranslation('admin-pools');
  const isPhone = useIsPhone();
  const detail = usePool(pool?.id ?? null);
  return (
    <Drawer
      open={pool !== null}
      onClose={onClose}
      title={pool ? t('areas.title', { name: pool.name }) : ''}
      size={isPhone ? '100%' : 640}
      destroyOnHidden
    >
      {pool && detail.isError && (
        <Empty description={t('errors.detail')}>
          <Button onClick={() => void detail.refetch()}>{t('retry')}</Button>
        </Empty>
      )}
      {pool && !detail.data && !detail.isError && <Spin />}
      {pool && detail.data && (
        <Tabs
          items={[
            {
              key: 'coverage',
              label: t('areas.coverageTab'),
              children: <CoveragePanel pool={pool} detail={detail.data!} />,
            },
            {
              key: 'spellings',
              label: t('areas.spellingsTab'),
              children: <SpellingsPanel pool={pool} detail={detail.data!} />,
            },
          ]}
        />
      )}
    </Drawer>
  );
}
