// Query factory for the new-version entry: the public versions file, read once per session; any
// failure is simply no entry, so it is never retried.
import { queryOptions } from '@tanstack/react-query';
import { fetchNewVersion } from '../latestVersion';
import { queryKeys } from '../queryKeys';

export const latestVersionQuery = (versionsUrl: string, currentVersion: string) =>
  queryOptions({
    queryKey: queryKeys.latestVersion(versionsUrl, currentVersion),
    queryFn: ({ signal }) => fetchNewVersion(versionsUrl, currentVersion, signal),
    staleTime: Infinity,
    retry: false,
  });
