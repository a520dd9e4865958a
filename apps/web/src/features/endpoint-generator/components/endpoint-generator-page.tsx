import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Empty, Flex, Form, Input, InputNumber, Radio, Row, Select, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, FileAddOutlined, SyncOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SESSTIME_MAX_MINUTES, type TExportLineFormat, type TProxyToken, type TSpiderRecordWithLines } from '@proxy/contract';
import { CopyButton } from '../../../components/copy-button';
import { AreaPicker } from '../../../entities/areas/area-picker';
import { showError, showSuccess } from '../../../lib/message';
import { useCreateSpider } from '../api/create-spider';
import { downloadSpiderFile } from '../api/download-spider-file';
import { useGeneratorTokens } from '../api/list-generator-tokens';
import { DEFAULT_STICKY_MINUTES, ENDPOINT_COUNT_MAX, buildEndpointLines, clampCount, type TSessionMode } from '../utils/build-lines';
import { LINE_FORMAT_OPTIONS, isFormatAgainstNetwork, LINE_FORMAT_LABELS } from '../utils/line-formats';
import { GrammarCard } from './grammar-card';
import { HistoryCard } from './history-card';

/** Values of the settings form. */
type TValues = {
  token_id?: number;
  country_id?: string;
  state_id?: string;
  city_id?: string;
  session: TSessionMode;
  sesstime?: number;
  line: TExportLineFormat;
  count?: number;
};

const INITIAL: TValues = { session: 'rotating', sesstime: DEFAULT_STICKY_MINUTES, line: 'hpup', count: 10 };

/** Label of a token in the picker: username, area, network and remark. */
function tokenLabel(token: TProxyToken): string {
  const area = [token.area.country_name, token.area.state_name, token.area.city_name].filter(Boolean).join(' / ');
  return [token.username, area, token.network, token.remark].filter(Boolean).join(' · ');
}

/**
 * /proxy/endpoint-generator: endpoint lines of one of the user's proxies with
 * area, session and format options, previewed in the browser in the username
 * grammar; "Generate file" stores them on the server for download.
 */
export default function EndpointGeneratorPage() {
  const { t } = useTranslation('endpoint-generator');
  const [form] = Form.useForm<TValues>();
  const values = Form.useWatch([], form) as TValues | undefined;
  const tokens = useGeneratorTokens();
  const createSpider = useCreateSpider();
  // Bumped by "New session ids" so sticky lines get fresh ids.
  const [sessionSeed, setSessionSeed] = useState(0);
  const [generated, setGenerated] = useState<{ key: string; record: TSpiderRecordWithLines } | null>(null);
  const [isDownloading, setIsDownloading] = useState(false);

  useEffect(() => {
    if (tokens.isError) showError(t('errors.tokens'));
  }, [tokens.isError, t]);

  const allTokens = useMemo(() => [...(tokens.data?.dynamic ?? []), ...(tokens.data?.static ?? [])], [tokens.data]);
  const token = allTokens.find((item) => item.token_id === values?.token_id);
  const isPinned = token?.product === 'static';
  const category = token?.category ?? 'isp';


  // Start with the first dynamic token (the generator's main use).
  useEffect(() => {
    if (!tokens.data || form.getFieldValue('token_id') !== undefined) return;
    const first = tokens.data.dynamic[0] ?? tokens.data.static[0];
    if (first) selectToken(first);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the list first arrives
  }, [tokens.data]);

  function selectToken(next: TProxyToken) {
    form.setFieldsValue({
      token_id: next.token_id,
      country_id: next.product === 'static' ? undefined : next.area.country || undefined,
      state_id: next.product === 'static' ? undefined : next.area.state || undefined,
      city_id: next.product === 'static' ? undefined : next.area.city || undefined,
      line: next.network === 'SOCKS5' ? 'socks5' : 'hpup',
    });
  }

  const settingsKey = JSON.stringify(values ?? {});
  const lines = useMemo(() => {
    if (!token || !values) return [];
    return buildEndpointLines(
      { host: token.host, port: token.port, username: token.username, password: token.password, isPinned },
      {
        country: values.country_id,
        state: values.state_id,
        city: values.city_id,
        mode: values.session ?? 'rotating',
        sesstime: values.sesstime,
        format: values.line ?? 'hpup',
        count: clampCount(values.count),
      },
    );
    // sessionSeed only asks for fresh session ids.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, isPinned, settingsKey, sessionSeed]);
  const isFromFile = generated !== null && generated.key === settingsKey;
  const shownLines = isFromFile ? generated.record.lines : lines;

  const handleGenerate = async () => {
    let checked: TValues;
    try {
      checked = await form.validateFields();
    } catch {
      return;
    }
    try {
      const record = await createSpider.mutateAsync({
        token_id: checked.token_id!,
        country_id: checked.country_id ?? '',
        state_id: checked.state_id ?? '',
        city_id: checked.city_id ?? '',
        session: checked.session,
        sesstime: checked.session === 'sticky' ? checked.sesstime : undefined,
        line: checked.line,
        count: clampCount(checked.count),
      });
      setGenerated({ key: settingsKey, record });
      showSuccess(t('preview.generated', { count: record.line_count }));
    } catch {
      // the request layer has shown why
    }
  };

  const handleDownload = async () => {
    if (!generated) return;
    setIsDownloading(true);
    // A failure was shown by the request layer.
    await downloadSpiderFile(generated.record.id, generated.record.filename).catch(() => undefined);
    setIsDownloading(false);
  };

  const hasNoTokens = tokens.isSuccess && allTokens.length === 0;
  const format = values?.line ?? 'hpup';
  const mismatch = token && isFormatAgainstNetwork(format, token.network);

  return (
    <Flex vertical gap={16}>
      <Card title={t('title')}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('intro')}
        </Typography.Paragraph>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={11}>
          <Card title={t('form.title')} style={{ height: '100%' }}>
            {hasNoTokens && (
              <Empty description={t('form.noTokens')} style={{ marginBottom: 16 }}>
                <Link to="/proxy/isp/variable">
                  <Button type="primary">{t('form.buyProxy')}</Button>
                </Link>
              </Empty>
            )}
            <Form<TValues> form={form} name="endpoint-generator" layout="vertical" initialValues={INITIAL} requiredMark={false}>
              <Form.Item name="token_id" label={t('form.token')} rules={[{ required: true, message: t('form.tokenRequired') }]}>
                <Select
                  showSearch
                  optionFilterProp="label"
                  placeholder={t('form.tokenPlaceholder')}
                  loading={tokens.isPending}
                  onChange={(id: number) => {
                    const next = allTokens.find((item) => item.token_id === id);
                    if (next) selectToken(next);
                  }}
                  options={[
                    { label: t('form.groupDynamic'), options: (tokens.data?.dynamic ?? []).map((item) => ({ value: item.token_id, label: tokenLabel(item) })) },
                    { label: t('form.groupStatic'), options: (tokens.data?.static ?? []).map((item) => ({ value: item.token_id, label: tokenLabel(item) })) },
                  ].filter((group) => group.options.length > 0)}
                />
              </Form.Item>
              {isPinned ? (
                <Alert type="info" showIcon title={t('form.staticArea')} style={{ marginBottom: 24 }} />
              ) : (
                <AreaPicker category={category} disabled={!token} />
              )}
              <Form.Item
                name="session"
                label={t('form.session')}
                extra={values?.session === 'sticky' ? t('form.stickyHelp') : t('form.rotatingHelp')}
              >
                <Radio.Group
                  disabled={isPinned}
                  optionType="button"
                  options={[
                    { value: 'rotating', label: t('form.rotating') },
                    { value: 'sticky', label: t('form.sticky') },
                  ]}
                />
              </Form.Item>
              {values?.session === 'sticky' && !isPinned && (
                <Form.Item
                  name="sesstime"
                  label={t('form.sesstime')}
                  rules={[{ required: true, type: 'integer', min: 1, max: SESSTIME_MAX_MINUTES, message: t('form.sesstimeRange', { max: SESSTIME_MAX_MINUTES }) }]}
                >
                  <InputNumber min={1} max={SESSTIME_MAX_MINUTES} precision={0} style={{ width: 160 }} />
                </Form.Item>
              )}
              <Row gutter={12}>
                <Col xs={24} sm={16}>
                  <Form.Item name="line" label={t('form.format')}>
                    <Select options={LINE_FORMAT_OPTIONS} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={8}>
                  <Form.Item
                    name="count"
                    label={t('form.count')}
                    rules={[{ required: true, type: 'integer', min: 1, max: ENDPOINT_COUNT_MAX, message: t('form.countRange', { max: ENDPOINT_COUNT_MAX }) }]}
                  >
                    <InputNumber min={1} max={ENDPOINT_COUNT_MAX} precision={0} disabled={isPinned} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </Row>
              {mismatch && (
                <Alert type="warning" showIcon title={t('form.protocolMismatch', { network: token.network, format: LINE_FORMAT_LABELS[format] })} />
              )}
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={13}>
          <Card
            title={
              <Space>
                {t('preview.title')}
                {shownLines.length > 0 && <Tag>{t('preview.lines', { count: shownLines.length })}</Tag>}
                {isFromFile && <Tag color="green">{t('preview.fromFile', { id: generated.record.id })}</Tag>}
              </Space>
            }
            style={{ height: '100%' }}
          >
            {shownLines.length === 0 ? (
              <Empty description={t('preview.empty')} />
            ) : (
              <Input.TextArea
                readOnly
                value={shownLines.join('\n')}
                aria-label={t('preview.title')}
                data-testid="endpoint-preview"
                rows={Math.min(18, Math.max(8, shownLines.length))}
                spellCheck={false}
                wrap="off"
                style={{ fontFamily: 'monospace', fontSize: 12.5 }}
              />
            )}
            <Flex gap={8} wrap style={{ marginTop: 16 }}>
              <CopyButton text={shownLines.join('\n')} successMessage={t('preview.copied', { count: shownLines.length })} disabled={shownLines.length === 0}>
                {t('preview.copy')}
              </CopyButton>
              {values?.session === 'sticky' && !isPinned && (
                <Button icon={<SyncOutlined />} onClick={() => setSessionSeed((seed) => seed + 1)} disabled={!token || isFromFile}>
                  {t('preview.newSessions')}
                </Button>
              )}
              <Button type="primary" icon={<FileAddOutlined />} onClick={() => void handleGenerate()} loading={createSpider.isPending} disabled={!token}>
                {t('preview.generate')}
              </Button>
              {isFromFile && (
                <Button icon={<DownloadOutlined />} onClick={() => void handleDownload()} loading={isDownloading}>
                  {t('preview.download')}
                </Button>
              )}
            </Flex>
          </Card>
        </Col>
      </Row>
      <GrammarCard />
      <HistoryCard />
    </Flex>
  );
}
