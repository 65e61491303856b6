// The commands the SDK dialog shows: built from this instance's address, the SDK index URL, the
// user's API key and the license key (the upload snippets are in sdkSnippets.ts).
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Step 1: pip from the instance's own index; plain http needs --trusted-host except locally. */
export function installCommand(sdkIndexUrl: string): string {
  let trusted = '';
  try {
    const url = new URL(sdkIndexUrl);
    if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
      trusted = ` --trusted-host ${url.hostname}`;
    }
  } catch {
    // Not a URL we can read: show it as it is.
  }
  return `pip install --index-url ${sdkIndexUrl}${trusted} loupe`;
}

/** Step 2: `loupe configure`, with the license flag only when there is a key. */
export function configureCommand(origin: string, apiKey: string, licenseKey?: string): string {
  const license = licenseKey ? ` --license-key ${licenseKey}` : '';
  return `loupe configure --url ${origin} --api-key ${apiKey}${license}`;
}
