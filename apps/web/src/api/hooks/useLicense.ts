// The instance license (GET /api/settings/license), shared by the nav tag and the License page.
import { useQuery } from '@tanstack/react-query';
import { api } from '../endpoints';
import { queryKeys } from '../queryKeys';

export function useLicense() {
  return useQuery({
    queryKey: queryKeys.settings.license(),
    queryFn: ({ signal }) => api.getLicense(signal),
  });
}
