import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZInventoryImportBody } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';

/** Checks (dry_run) or imports a CSV of upstream proxies. */
export function useImportInventory() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZInventoryImportBody>) =>
      callApi('adminInventoryImport', body, { failureMessage: translate('admin-inventory:errors.import') }),
  });
}
