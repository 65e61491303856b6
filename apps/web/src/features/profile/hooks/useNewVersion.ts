// The new-version entry of the profile menu, read once per session from the versions file.
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../api/queryKeys';
import { fetchNewVersion } from '../latestVersion';

export function useNewVersion(versionsUrl: string | undefined, currentVersion: string) {
  return useQuery({
    queryKey: queryKeys.latestVersion(versionsUrl ?? ''),
    queryFn: ({ signal }) => fetchNewVersion(versionsUrl ?? '', currentVersion, signal),
    enabled: Boolean(versionsUrl),
    staleTime: Infinity,
    retry: false,
  });
}
