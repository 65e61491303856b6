// Downloads the support bundle: a form POST (so the browser saves the zip attachment itself)
// carrying the client state the server adds to the bundle (shell.md §7).
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

export function downloadSupportBundle(): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/api/support/bundle';
  form.style.display = 'none';
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = 'client_state';
  field.value = JSON.stringify(clientState());
  form.append(field);
  document.body.append(form);
  form.submit();
  form.remove();
}
