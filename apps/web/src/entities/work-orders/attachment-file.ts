import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** An attachment's image (GET /user/work/order/attachment/{id}: its owner and operators only), as a Blob. */
export function getAttachmentFile(id: number, signal?: AbortSignal): Promise<Blob> {
  return callApi('workOrderAttachmentFile', { id }, { signal, skipTips: true }) as Promise<Blob>;
}

/**
 * An object URL of an attachment's image for an <img> (the call carries the
 * session, which an image tag cannot); undefined while it loads or when it failed.
 */
export function useAttachmentUrl(id: number): { url: string | undefined; isError: boolean } {
  const query = useQuery({
    queryKey: ['work-orders', 'attachment', id],
    queryFn: ({ signal }) => getAttachmentFile(id, signal),
    staleTime: Infinity,
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!query.data) return undefined;
    const next = URL.createObjectURL(query.data);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [query.data]);
  return { url, isError: query.isError };
}
