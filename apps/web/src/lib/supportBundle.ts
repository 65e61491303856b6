// Downloads the support bundle: the server zips its version, configuration without secrets,
// recent logs and migration state with the client state posted here (docs/product.md, Shell §7).
import { api } from '@loupe/contracts';
import { call } from '../api/client';
import { fileTimestamp } from './download';
import { loupeStorageEntries } from './storage';

export function clientState(): Record<string, unknown> {
  return {
    environment: {
      url: window.location.href,
      time: new Date().toISOString(),
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      screen: { width: window.screen.width, height: window.screen.height },
      viewport: { width: window.innerWidth, height: window.innerHeight },
      devicePixelRatio: window.devicePixelRatio,
    },
    navigator: {
      userAgent: navigator.userAgent,
      language: navigator.language,
      languages: [...navigator.languages],
      platform: navigator.platform,
      cookieEnabled: navigator.cookieEnabled,
      onLine: navigator.onLine,
      hardwareConcurrency: navigator.hardwareConcurrency,
    },
    localStorage: loupeStorageEntries(),
  };
}

function fileNameOf(response: Response): string {
  const header = response.headers.get('content-disposition') ?? '';
  const match = /filename="?([^";]+)"?/i.exec(header);
  return match?.[1] ?? `loupe-support-${fileTimestamp()}.zip`;
}

/** Posts the client state and saves the zip the server answers; throws ApiError on failure. */
export async function downloadSupportBundle(): Promise<void> {
  const response = await call(api.support.bundle, { body: { client_state: clientState() } });
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileNameOf(response);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
