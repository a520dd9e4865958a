import { QueryClient } from '@tanstack/react-query';

/**
 * The one TanStack Query client of the console. Errors are already toasted by
 * the request layer, so queries do not retry (a retry would toast again).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
});
