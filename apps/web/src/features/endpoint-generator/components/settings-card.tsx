import { Alert, Button, Card, Col, Empty, Form, InputNumber, Radio, Row, Select } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SESSTIME_MAX_MINUTES, type TProxyToken } from '@proxy/contract';
import { AreaPicker } from '../../../entities/areas/area-picker';
import { INITIAL_SETTINGS, type TEndpointSettings, type TEndpointSettingsState } from '../hooks/use-endpoint-settings';
import { ENDPOINT_COUNT_MAX } from '../utils/build-lines';
import { LINE_FORMAT_LABELS, LINE_FORMAT_OPTIONS, isFormatAgainstNetwork } from '../utils/line-formats';

/** Label of a token in the picker: username, area, network and remark. */
function tokenLabel(token: TProxyToken): string {
  const area = [token.area.country_name, token.area.state_name, token.area.city_name].filter(Boolean).join(' / ');
  return [token.username, area, token.network, token.remark].filter(Boolean).join(' · ');
}

/** The generator's settings: proxy, area (not for a static proxy), session, line format and count. */
export function SettingsCard({ settings }: { settings: TEndpointSettingsState }) {
  const { t } = useTranslation('endpoint-generator');
  const { form, values, tokens, allTokens, token, isPinned, hasNoTokens, selectToken } = settings;
  const format = values?.line ?? INITIAL_SETTINGS.line;
  const isSticky = values?.session === 'sticky';
  const tokenGroups = [
    {
      label: t('form.groupDynamic'),
      options: (tokens.data?.dynamic ?? []).map((item) => ({ value: item.token_id, label: tokenLabel(item) })),
    },
    {
      label: t('form.groupStatic'),
      options: (tokens.data?.static ?? []).map((item) => ({ value: item.token_id, label: tokenLabel(item) })),
    },
  ].filter((group) => group.options.length > 0);

  return (
    <Card title={t('form.title')} style={{ height: '100%' }}>
      {hasNoTokens && (
        <Empty description={t('form.noTokens')} style={{ marginBottom: 16 }}>
          <Link to="/proxy/isp/variable">
            <Button type="primary">{t('form.buyProxy')}</Button>
          </Link>
        </Empty>
      )}
      <Form<TEndpointSettings>
        form={form}
        name="endpoint-generator"
        layout="vertical"
        initialValues={INITIAL_SETTINGS}
        requiredMark={false}
      >
        <Form.Item
          name="token_id"
          label={t('form.token')}
          rules={[{ required: true, message: t('form.tokenRequired') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            placeholder={t('form.tokenPlaceholder')}
            loading={tokens.isPending}
            onChange={(id: number) => {
              const next = allTokens.find((item) => item.token_id === id);
              if (next) selectToken(next);
            }}
            options={tokenGroups}
          />
        </Form.Item>
        {isPinned ? (
          <Alert type="info" showIcon title={t('form.staticArea')} style={{ marginBottom: 24 }} />
        ) : (
          <AreaPicker category={token?.category ?? 'isp'} disabled={!token} />
        )}
        <Form.Item
          name="session"
          label={t('form.session')}
          extra={isSticky ? t('form.stickyHelp') : t('form.rotatingHelp')}
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
        {isSticky && !isPinned && (
          <Form.Item
            name="sesstime"
            label={t('form.sesstime')}
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: SESSTIME_MAX_MINUTES,
                message: t('form.sesstimeRange', { max: SESSTIME_MAX_MINUTES }),
              },
            ]}
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
              rules={[
                {
                  required: true,
                  type: 'integer',
                  min: 1,
                  max: ENDPOINT_COUNT_MAX,
                  message: t('form.countRange', { max: ENDPOINT_COUNT_MAX }),
                },
              ]}
            >
              <InputNumber
                min={1}
                max={ENDPOINT_COUNT_MAX}
                precision={0}
                disabled={isPinned}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
        </Row>
        {token && isFormatAgainstNetwork(format, token.network) && (
          <Alert
            type="warning"
            showIcon
            title={t('form.protocolMismatch', { network: token.network, format: LINE_FORMAT_LABELS[format] })}
          />
        )}
      </Form>
    </Card>
  );
}
