import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { TChargeOptionSetInput, TPayMethod, TPriceKey, TPriceVersionInput } from '@proxy/contract';
import { PRICE_CATALOGUE_QUERY_KEY } from '../../../entities/pricing/price-catalogue';
import { FAIR_USE_QUERY_KEY } from '../../../entities/pricing/fair-use';
import { callApi } from '../../../lib/api-client';
import { translate } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';

const ADMIN_PRICES_KEY = ['admin', 'prices'] as const;
const ADMIN_CHARGE_OPTIONS_KEY = ['admin', 'charge-options'] as const;

/** Every price key: in effect, list price, scheduled versions. */
export function useAdminPrices() {
  return useQuery({
    queryKey: [...ADMIN_PRICES_KEY, 'list'],
    queryFn: ({ signal }) =>
      callApi('adminPriceList', undefined, { signal, failureMessage: translate('admin-pricing:errors.prices') }),
  });
}

/** A page of the versions of one price key, newest first. */
export function usePriceHistory(params: { key: TPriceKey | null; page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...ADMIN_PRICES_KEY, 'history', params],
    queryFn: ({ signal }) =>
      callApi(
        'adminPriceHistory',
        { key: params.key ?? undefined, page: params.page, page_size: params.pageSize },
        { signal, failureMessage: translate('admin-pricing:errors.history') },
      ),
    enabled: params.key !== null,
    placeholderData: keepPreviousData,
  });
}

/** New price versions; the catalogue the purchase form reads reloads too. */
export function useCreatePriceVersions() {
  return useMutation({
    mutationFn: (input: TPriceVersionInput) =>
      callApi('adminPriceCreate', input, { failureMessage: translate('admin-pricing:errors.save') }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_PRICES_KEY }),
        queryClient.invalidateQueries({ queryKey: PRICE_CATALOGUE_QUERY_KEY }),
      ]),
  });
}

/** The option set in effect, the scheduled sets, the methods and the fee. */
export function useAdminChargeOptions() {
  return useQuery({
    queryKey: [...ADMIN_CHARGE_OPTIONS_KEY, 'state'],
    queryFn: ({ signal }) =>
      callApi('adminChargeOptions', undefined, { signal, failureMessage: translate('admin-pricing:errors.options') }),
  });
}

/** A page of the option set versions, newest first. */
export function useChargeOptionVersions(params: { page: number; pageSize: number; enabled: boolean }) {
  return useQuery({
    queryKey: [...ADMIN_CHARGE_OPTIONS_KEY, 'versions', params.page, params.pageSize],
    queryFn: ({ signal }) =>
      callApi(
        'adminChargeOptionVersions',
        { page: params.page, page_size: params.pageSize },
        { signal, failureMessage: translate('admin-pricing:errors.history') },
      ),
    enabled: params.enabled,
    placeholderData: keepPreviousData,
  });
}

/** A new option set version. */
export function useCreateChargeOptionSet() {
  return useMutation({
    mutationFn: (input: TChargeOptionSetInput) =>
      callApi('adminChargeOptionCreate', input, { failureMessage: translate('admin-pricing:errors.saveOptions') }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_CHARGE_OPTIONS_KEY }),
  });
}

/** Switches a payment method on or off. */
export function useSetPayMethod() {
  return useMutation({
    mutationFn: (input: { method: TPayMethod; is_enabled: boolean }) =>
      callApi('adminPayMethodSet', input, { failureMessage: translate('admin-pricing:errors.method') }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_CHARGE_OPTIONS_KEY }),
  });
}

const ADMIN_SYSTEM_SETTINGS_KEY = ['admin', 'system-settings'] as const;

/** The installation's settings (the fair-use traffic of IP-billed dynamic proxies among them). */
export function useAdminSystemSettings() {
  return useQuery({
    queryKey: ADMIN_SYSTEM_SETTINGS_KEY,
    queryFn: ({ signal }) =>
      callApi('adminSystemSettings', undefined, { signal, failureMessage: translate('admin-pricing:errors.settings') }),
  });
}

/** Sets the fair-use traffic (GB per day, 0: off); what the purchase form shows reloads too. */
export function useSetFairUse() {
  return useMutation({
    mutationFn: (gbPerDay: number) =>
      callApi(
        'adminSystemSettingsUpdate',
        { ip_dynamic_fair_use_gb_per_day: gbPerDay },
        { failureMessage: translate('admin-pricing:errors.saveFairUse') },
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_SYSTEM_SETTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: FAIR_USE_QUERY_KEY }),
      ]),
  });
}
