// The instance license (GET /api/settings/license), shared by the nav tag and the License page.
import { useQuery } from '@tanstack/react-query';
import { licenseQuery } from '../queries/settings';

export function useLicense() {
  return useQuery(licenseQuery());
}
