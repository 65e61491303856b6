// Submits a license key: POST when unlicensed, PUT (resubmit) when expired or licensed.
import { api, type LicenseState } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { licenseQuery } from '../../../api/queries/settings';
import { queryKeys } from '../../../api/queryKeys';

export function useSubmitLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, state }: { key: string; state: LicenseState }) =>
      call(state === 'UNLICENSED' ? api.settings.submitLicense : api.settings.replaceLicense, {
        body: { key },
      }),
    onSuccess: (license) => {
      queryClient.setQueryData(licenseQuery().queryKey, license);
      return queryClient.invalidateQueries({ queryKey: queryKeys.appState() });
    },
  });
}
