import { useEffect, useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TExportLineFormat, TProxyToken } from '@proxy/contract';
import { showError } from '../../../lib/message';
import { useGeneratorTokens } from '../api/list-generator-tokens';
import { DEFAULT_STICKY_MINUTES, type TSessionMode } from '../utils/build-lines';

/** Values of the settings form. */
export type TEndpointSettings = {
  token_id?: number;
  country_id?: string;
  state_id?: string;
  city_id?: string;
  session: TSessionMode;
  sesstime?: number;
  line: TExportLineFormat;
  count?: number;
};

/** Settings of a fresh page: rotating sessions, host:port:user:pass, 10 lines. */
export const INITIAL_SETTINGS: TEndpointSettings = {
  session: 'rotating',
  sesstime: DEFAULT_STICKY_MINUTES,
  line: 'hpup',
  count: 10,
};

/**
 * The settings form and the proxy it is about: the user's enabled proxies,
 * the chosen one (the first dynamic one to start with), and whether its exit
 * is pinned (a static proxy has one fixed exit: no area or session options).
 */
export function useEndpointSettings() {
  const { t } = useTranslation('endpoint-generator');
  const [form] = Form.useForm<TEndpointSettings>();
  const values = Form.useWatch([], form) as TEndpointSettings | undefined;
  const tokens = useGeneratorTokens();

  useEffect(() => {
    if (tokens.isError) showError(t('errors.tokens'));
  }, [tokens.isError, t]);

  const allTokens = useMemo(() => [...(tokens.data?.dynamic ?? []), ...(tokens.data?.static ?? [])], [tokens.data]);
  const token = allTokens.find((item) => item.token_id === values?.token_id);

  /** Chooses a proxy: its own area and protocol become the defaults. */
  const selectToken = (next: TProxyToken) => {
    const isStatic = next.product === 'static';
    form.setFieldsValue({
      token_id: next.token_id,
      country_id: isStatic ? undefined : next.area.country || undefined,
      state_id: isStatic ? undefined : next.area.state || undefined,
      city_id: isStatic ? undefined : next.area.city || undefined,
      line: next.network === 'SOCKS5' ? 'socks5' : 'hpup',
    });
  };

  // Start with the first dynamic token (the generator's main use).
  useEffect(() => {
    if (!tokens.data || form.getFieldValue('token_id') !== undefined) return;
    const first = tokens.data.dynamic[0] ?? tokens.data.static[0];
    if (first) selectToken(first);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the list first arrives
  }, [tokens.data]);

  return {
    form,
    values,
    tokens,
    allTokens,
    token,
    isPinned: token?.product === 'static',
    hasNoTokens: tokens.isSuccess && allTokens.length === 0,
    selectToken,
  };
}

/** What the settings hook gives the cards. */
export type TEndpointSettingsState = ReturnType<typeof useEndpointSettings>;
