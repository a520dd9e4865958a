import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZNoticePublishBody, ZNotificationSendBody } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

const NOTICE_KEY = ['admin', 'notice'] as const;

/** The notice in force (both languages), or null while the built-in welcome shows. */
export function useCurrentNotice() {
  return useQuery({
    queryKey: NOTICE_KEY,
    queryFn: ({ signal }) =>
      callApi('adminNoticeCurrent', {}, { signal, failureMessage: translate('admin-site:errors.load') }),
  });
}

/** Publishes a new notice: every customer sees it once again. */
export function usePublishNotice() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZNoticePublishBody>) =>
      callApi('adminNoticePublish', body, { failureMessage: translate('admin-site:errors.publish') }),
    onSuccess: (notice) => queryClient.setQueryData(NOTICE_KEY, notice),
  });
}

/** Sends a notification to one customer (user_id) or to every active account. */
export function useSendNotification() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZNotificationSendBody>) =>
      callApi('adminNotificationSend', body, { failureMessage: translate('admin-site:errors.send') }),
  });
}
