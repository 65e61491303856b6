// The one setup call: company and, for a local instance, the first user. It signs the user in
// and marks the instance set up; the wizard still shows its final step before leaving.
import { api, type SetupRequest } from '@loupe/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../api/client';

export function useSetup() {
  return useMutation({ mutationFn: (body: SetupRequest) => call(api.setup.complete, { body }) });
}
