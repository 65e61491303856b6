// Submits a license key: POST when unlicensed, PUT (resubmit) when expired or licensed.
import type { LicenseState } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/endpoints';
import { licenseQuery } from '../../../api/queries/settings';
import { queryKeys } from '../../../api/queryKeys';

export function useSubmitLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, state }: { key: string; state: LicenseState }) =>
      state === 'UNLICENSED' ? api.submitLicense({ key }) : api.resubmitLicense({ key }),
    onSuccess: (license) => {
      queryClient.setQueryData(licenseQuery().queryKey, license);
      return queryClient.invalidateQueries({ queryKey: queryKeys.appState() });
    },
  });
}
