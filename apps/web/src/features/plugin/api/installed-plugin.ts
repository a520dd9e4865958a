import { useQuery } from '@tanstack/react-query';
import { PLUGIN_ANSWER_TIMEOUT_MS, type TPluginAnswer } from '@proxy/contract';
import { sendToExtension } from '../../../entities/plugin/extension-bridge';

/** The plugin installed in this browser, as it says hello (null when it does not answer in the stated time). */
export function useInstalledPlugin(extensionId: string | null | undefined) {
  return useQuery({
    queryKey: ['plugin', 'installed', extensionId],
    queryFn: async (): Promise<Extract<TPluginAnswer, { type: 'hello' }> | null> => {
      const answer = await sendToExtension(extensionId!, { type: 'hello' }, PLUGIN_ANSWER_TIMEOUT_MS);
      return answer?.ok && answer.type === 'hello' ? answer : null;
    },
    enabled: !!extensionId,
    staleTime: 0,
    gcTime: 0,
  });
}
