// Journey 2 of docs/product.md: SDK dialog → pip install from the instance → upload a dataset and two
// prediction sets from Python → the activities show the jobs → the overview shows the data.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ActivitiesPopover } from './pages/ActivitiesPopover';
import { DatasetOverview } from './pages/DatasetOverview';
import { SdkDialog } from './pages/SdkDialog';
import { ApiSession } from './support/api';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();
const workDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-sdk-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// Six small PNGs drawn with zlib and struct, two classes, and two prediction sets.
const UPLOAD_SCRIPT = String.raw`
import os, struct, zlib
import loupe

def png(r, g, b, width=48, height=32):
    row = b"\x00" + bytes([r, g, b]) * width
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))

client = loupe.Client(os.environ["LOUPE_URL"], os.environ["LOUPE_API_KEY"])
dataset = client.create_dataset("sdk-pets", "classification", class_names=["cat", "dog"],
                                description="Six tiny images uploaded by the e2e journey.")
samples = [
    {"id": f"img-{i}.png", "image": png(40 * i, 200 - 30 * i, 120),
     "label": "cat" if i % 2 == 0 else "dog", "split": "train" if i < 4 else "test"}
    for i in range(6)
]
print(dataset.upload_samples(samples))
for name, wrong_every in (("resnet-a", 3), ("resnet-b", 2)):
    dataset.upload_predictions(name, [
        {"id": s["id"], "score": 0.9,
         "label": s["label"] if i % wrong_every else ("dog" if s["label"] == "cat" else "cat")}
        for i, s in enumerate(samples)
    ])
print(dataset.id)
`;

test('an admin sets up the SDK, uploads from Python and follows the jobs to the overview', async () => {
  const { page, server } = journey;
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  const licenseKey = await session.license();
  const shell = await signIn(page, ADMIN.email, ADMIN.password);

  // Help → Getting started → Set up SDK.
  await shell.nav.getByRole('button', { name: 'Help' }).click();
  await shell.gettingStarted().getByText('Set up SDK', { exact: true }).click();
  const sdk = new SdkDialog(page);
  await sdk.dialog().getByTestId('sdk-install-command').waitFor();
  const install = await sdk.installCommand();
  const configure = await sdk.configureCommand();
  const origin = new URL(page.url()).origin;
  expect(install).toBe(`pip install --index-url ${origin}/sdk/python/simple/ loupe`);
  const apiKey = /--api-key (\S+)/.exec(configure)?.[1] ?? '';
  expect(configure).toBe(
    `loupe configure --url ${origin} --api-key ${apiKey} --license-key ${licenseKey}`,
  );
  // The copy button confirms with 'Copied!'.
  await sdk.dialog().getByRole('button', { name: 'Copy: Install the SDK' }).click();
  await page.getByRole('tooltip').filter({ hasText: 'Copied!' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(install);
  await sdk.close();

  // pip install exactly as shown, into a throwaway directory, then upload from Python.
  const indexUrl = /--index-url (\S+)/.exec(install)?.[1] ?? '';
  const target = join(workDir, 'site');
  execFileSync(
    'python3',
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--no-cache-dir',
      '--index-url',
      indexUrl,
      '--target',
      target,
      'loupe',
    ],
    { stdio: 'pipe' },
  );
  const script = join(workDir, 'upload.py');
  writeFileSync(script, UPLOAD_SCRIPT);
  const output = execFileSync('python3', [script], {
    env: { ...process.env, PYTHONPATH: target, LOUPE_URL: origin, LOUPE_API_KEY: apiKey },
    encoding: 'utf8',
  });
  const datasetId = output.trim().split('\n').at(-1) ?? '';
  expect(output).toContain("'created': 6");

  // The jobs appear under My activities and turn SUCCESS; a finished one leads to the overview.
  const activities = new ActivitiesPopover(page);
  await activities.open();
  await activities.rows().filter({ hasText: 'sdk-pets' }).first().waitFor();
  await activities.waitForSuccess('sdk-pets');
  await activities.rows().filter({ hasText: 'sdk-pets' }).first().click();
  await page.waitForURL(`**/datasets/${datasetId}/overview`);

  const overview = new DatasetOverview(page);
  await overview.expectShown('sdk-pets');
  await overview.expectStatistic('Samples', 6);
  await overview.expectStatistic('Classes', 2);
  await overview.expectStatistic('Predictions', 2);
  await overview.expectNoStatistic('Ground-truth objects');
  await overview.expectPreviews(3);
  await page.getByText('6 items').first().waitFor();
  await page.getByText('uploaded items').first().waitFor();

  // The model group appears for a dataset with prediction sets; Choose model lists both.
  await shell.nav.getByText('Performance', { exact: true }).click();
  const choose = page.getByRole('dialog', { name: 'Choose model' });
  await choose.getByText('resnet-a').waitFor();
  await choose.getByText('resnet-b').click();
  await page.waitForURL(`**/models/datasets/${datasetId}/predictions/*/performance`);
});
