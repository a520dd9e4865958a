import { Flex, Progress, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PROXY_REMARK_MAX, type TProxyToken } from '@proxy/contract';
import { formatBytesTrimmed, formatDateTimeSeconds } from '../../../lib/format';
import { showError, showSuccess } from '../../../lib/message';
import { useSetAutoRenew } from '../api/set-auto-renew';
import { useUpdateRemark } from '../api/update-remark';
import { formatAllowance, usagePercent } from '../utils/format';
import type { TScreenConfig } from '../utils/screens';
import { CopyText, SecretText } from './copy-field';

/** The remark, edited in place (saved when it changed); one line with an ellipsis, the whole text on hover. */
export function RemarkCell({ token }: { token: TProxyToken }) {
  const { t } = useTranslation('proxies');
  const updateRemark = useUpdateRemark();

  const handleChange = async (text: string) => {
    const remark = text.trim();
    if (remark === token.remark) return;
    try {
      await updateRemark.mutateAsync({ tokenId: token.token_id, remark });
      showSuccess(t('row.remarkSaved'));
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <Typography.Text
      editable={{
        text: token.remark,
        maxLength: PROXY_REMARK_MAX,
        tooltip: t('row.editRemark'),
        triggerType: ['icon'],
        onChange: (text) => void handleChange(text),
      }}
      type={token.remark ? undefined : 'secondary'}
      // A long remark stays on one line, cut with an ellipsis; the whole text shows on hover.
      ellipsis={token.remark ? { tooltip: { title: token.remark, placement: 'topLeft' } } : false}
      style={{ maxWidth: '100%' }}
      data-testid={`remark-${token.token_id}`}
    >
      {token.remark || t('row.noRemark')}
    </Typography.Text>
  );
}

/** Traffic used, against the allowance with a bar for traffic products. */
export function UsageCell({ token }: { token: TProxyToken }) {
  const { t } = useTranslation('proxies');
  const percent = usagePercent(token.usage);
  if (token.usage.limit_bytes === null || percent === null) return formatBytesTrimmed(token.usage.used_bytes);
  return (
    <div>
      <Typography.Text style={{ fontSize: 12 }}>
        {t('usage.ofLimit', {
          used: formatBytesTrimmed(token.usage.used_bytes),
          limit: formatAllowance(token.usage.limit_bytes),
        })}
      </Typography.Text>
      <Progress percent={percent} size="small" status={percent >= 100 ? 'exception' : 'normal'} showInfo={false} />
    </div>
  );
}

/** The auto-renew switch of an IP proxy ("-" for traffic products). */
export function AutoRenewCell({ screen, token }: { screen: TScreenConfig; token: TProxyToken }) {
  const { t } = useTranslation('proxies');
  const autoRenew = useSetAutoRenew(screen);
  if (token.type !== 'ip') return <Typography.Text type="secondary">-</Typography.Text>;

  const handleChange = (isOn: boolean) =>
    autoRenew.mutateAsync({ tokenIds: [token.token_id], isOn }).then(
      (result) =>
        result.success > 0 ? showSuccess(t(isOn ? 'autoRenew.on' : 'autoRenew.off')) : showError(t('autoRenew.failed')),
      () => undefined, // the request layer has shown why
    );

  return (
    <Switch
      size="small"
      checked={token.auto_renew}
      disabled={token.status === 'deleted' || token.status === 'invalid'}
      loading={autoRenew.isPending}
      aria-label={t('row.autoRenewFor', { name: token.username })}
      onChange={(checked) => void handleChange(checked)}
    />
  );
}

/** Date above time, so the column stays narrow. */
export function DateTimeCell({ iso }: { iso: string }) {
  const [date, time] = formatDateTimeSeconds(iso).split(' ');
  return (
    <Flex vertical>
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>{date}</Typography.Text>
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap', fontSize: 12 }}>
        {time}
      </Typography.Text>
    </Flex>
  );
}

/** What a client needs to connect, one per line: host:port, username and the password (hidden until shown); each copyable. */
export function CredentialsCell({ token }: { token: TProxyToken }) {
  return (
    <Flex vertical align="flex-start" data-testid={`credentials-${token.token_id}`}>
      {/* A long gateway host wraps rather than widening the column. */}
      <CopyText text={`${token.host}:${token.port}`} />
      <CopyText text={token.username} />
      <SecretText secret={token.password} label={token.username} />
    </Flex>
  );
}
