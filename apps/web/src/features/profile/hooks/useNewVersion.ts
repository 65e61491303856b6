// The new-version entry of the profile menu, read once per session from the versions file.
import { useQuery } from '@tanstack/react-query';
import { latestVersionQuery } from '../../../api/queries/latestVersion';

export function useNewVersion(versionsUrl: string | undefined, currentVersion: string) {
  return useQuery({
    ...latestVersionQuery(versionsUrl ?? '', currentVersion),
    enabled: Boolean(versionsUrl),
  });
}
