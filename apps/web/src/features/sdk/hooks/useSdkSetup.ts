// What the SDK commands need: the SDK index URL, the user's API key and the license key.
import { useQuery } from '@tanstack/react-query';
import { useLicense } from '../../../api/hooks/useLicense';
import { apiKeyQuery, tokensQuery } from '../../../api/queries/settings';

export interface SdkSetup {
  origin: string;
  sdkIndexUrl: string;
  apiKey: string;
  licenseKey: string;
}

export function useSdkSetup(enabled = true) {
  const tokens = useQuery({ ...tokensQuery(), enabled });
  const apiKey = useQuery({ ...apiKeyQuery(), enabled });
  const license = useLicense();
  const queries = [tokens, apiKey];
  const error = queries.find((query) => query.isError)?.error;
  const data: SdkSetup | undefined =
    tokens.data && apiKey.data
      ? {
          origin: window.location.origin,
          sdkIndexUrl: tokens.data.sdk_index_url,
          apiKey: apiKey.data.api_key,
          // A failed license read only drops the license flag from the command.
          licenseKey: license.data?.key ?? '',
        }
      : undefined;
  return {
    data,
    error,
    isPending: !data && !error,
    refetch: () => queries.forEach((query) => void query.refetch()),
  };
}
