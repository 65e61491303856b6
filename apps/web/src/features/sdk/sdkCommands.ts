// The commands and snippets the SDK dialog, the Add Dataset and the Add Model modals show: built
// from this instance's address, the SDK index URL, the user's API key and the license key.
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

const py = (text: string) => JSON.stringify(text);

/** A first upload: create a classification dataset and send two samples. */
export function uploadDatasetSnippet(origin: string, apiKey: string): string {
  return [
    'import loupe',
    '',
    `client = loupe.Client(${py(origin)}, ${py(apiKey)})`,
    'dataset = client.create_dataset("pets", "classification", class_names=["cat", "dog"])',
    'dataset.upload_samples([',
    '    {"id": "cat-1.jpg", "image": "photos/cat-1.jpg", "label": "cat", "split": "train"},',
    '    {"id": "dog-1.jpg", "image": "photos/dog-1.jpg", "label": "dog", "split": "test"},',
    '])',
  ].join('\n');
}

/** Predictions of a model for an uploaded dataset: each becomes a model to evaluate. */
export function uploadPredictionsSnippet(origin: string, apiKey: string): string {
  return [
    'import loupe',
    '',
    `client = loupe.Client(${py(origin)}, ${py(apiKey)})`,
    'dataset = client.get_dataset("pets")',
    'dataset.upload_predictions("resnet50-epoch12", [',
    '    {"id": "cat-1.jpg", "label": "cat", "score": 0.92, "probabilities": [0.92, 0.08]},',
    '    {"id": "dog-1.jpg", "label": "cat", "score": 0.55, "probabilities": [0.55, 0.45]},',
    '])',
  ].join('\n');
}
