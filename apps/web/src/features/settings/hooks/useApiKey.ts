// The signed-in user's development API key (GET /api/settings/key).
import { useQuery } from '@tanstack/react-query';
import { apiKeyQuery } from '../../../api/queries/settings';

export function useApiKey() {
  return useQuery(apiKeyQuery());
}
