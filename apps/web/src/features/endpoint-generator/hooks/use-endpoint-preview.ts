import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSpiderRecordWithLines } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { useCreateSpider } from '../api/create-spider';
import { downloadSpiderFile } from '../api/download-spider-file';
import { buildEndpointLines, clampCount } from '../utils/build-lines';
import type { TEndpointSettings, TEndpointSettingsState } from './use-endpoint-settings';

/**
 * The lines shown: previewed in the browser from the settings (the username
 * grammar), or the lines of the file "Generate file" stored, for as long as
 * the settings stay those of the file.
 */
export function useEndpointPreview({ form, values, token, isPinned }: TEndpointSettingsState) {
  const { t } = useTranslation('endpoint-generator');
  const createSpider = useCreateSpider();
  // Bumped by "New session ids" so sticky lines get fresh ids.
  const [sessionSeed, setSessionSeed] = useState(0);
  const [generated, setGenerated] = useState<{ key: string; record: TSpiderRecordWithLines } | null>(null);
  const [isDownloading, setIsDownloading] = useState(false);

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
  const file = generated !== null && generated.key === settingsKey ? generated.record : null;

  const generate = async () => {
    let checked: TEndpointSettings;
    try {
      checked = await form.validateFields();
    } catch {
      return; // the fields show why
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

  const download = async () => {
    if (!file) return;
    setIsDownloading(true);
    // A failure was shown by the request layer.
    await downloadSpiderFile(file.id, file.filename).catch(() => undefined);
    setIsDownloading(false);
  };

  return {
    lines: file ? file.lines : lines,
    /** The stored file the lines come from, or null for a browser preview. */
    file,
    isGenerating: createSpider.isPending,
    isDownloading,
    generate,
    download,
    renewSessions: () => setSessionSeed((seed) => seed + 1),
  };
}

/** What the preview hook gives the preview card. */
export type TEndpointPreviewState = ReturnType<typeof useEndpointPreview>;
