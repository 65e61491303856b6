// The first hour (docs/product.md, journeys): a newcomer starts Loupe with `--demo`, walks the
// wizard, finds the SDK from the Getting started dialog, installs it from the instance's own index,
// configures it with the command shown, uploads a small detection dataset and two prediction sets
// from Python — no license step of their own, the demo's evaluation licence covers it — and finds
// both models in the app.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DatasetOverview } from './pages/DatasetOverview';
import { DatasetsList } from './pages/DatasetsList';
import { SdkDialog } from './pages/SdkDialog';
import { SetupWizard } from './pages/SetupWizard';
import { Shell } from './pages/Shell';
import { launchBrowser, newContext, screenshotFailures } from './support/browser';
import { LoupeServer } from './support/server';

const newcomer = { name: 'Nia Newcomer', email: 'nia@lab.test', password: 'first-hour-pass' };
const workDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-first-hour-'));
let server: LoupeServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // What `npm start -- --demo` runs: the demo datasets and an evaluation licence.
  server = new LoupeServer({ args: ['--demo'] });
  await server.start();
  browser = await launchBrowser();
  page = await (await newContext(browser, { baseURL: server.url, theme: 'lightBlue' })).newPage();
});

screenshotFailures(() => [page]);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  rmSync(workDir, { recursive: true, force: true });
});

// Eight street frames with cars and people drawn as flat rectangles, and two detectors: one that
// finds everything slightly off, one that misses every person.
const UPLOAD_SCRIPT = String.raw`
import struct, zlib
import loupe

def png(boxes, width=96, height=64):
    pixels = [[(90, 90, 90)] * width for _ in range(height)]
    for label, (x, y, w, h) in boxes:
        colour = (200, 40, 40) if label == "car" else (40, 40, 200)
        for row in range(y, y + h):
            for col in range(x, x + w):
                pixels[row][col] = colour
    raw = b"".join(b"\x00" + bytes(c for p in line for c in p) for line in pixels)
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

client = loupe.Client()  # the URL and API key saved by 'loupe configure'
street = client.create_dataset("street-mini", "object_detection", class_names=["car", "person"])
frames = []
for i in range(8):
    boxes = [("car", [4 + 3 * i, 10, 30, 16]), ("person", [60, 8 + 2 * i, 10, 24])]
    frames.append({"id": f"frame-{i}.png", "image": png(boxes),
                   "split": "train" if i < 6 else "test",
                   "objects": [{"label": label, "bbox": box} for label, box in boxes]})
print(street.upload_samples(frames))
street.upload_predictions("detector-a", [
    {"id": f["id"], "objects": [{"label": o["label"], "bbox": [o["bbox"][0] + 1, o["bbox"][1], o["bbox"][2], o["bbox"][3]],
                                 "score": 0.9} for o in f["objects"]]}
    for f in frames
])
street.upload_predictions("detector-b", [
    {"id": f["id"], "objects": [{"label": "car", "bbox": f["objects"][0]["bbox"], "score": 0.7}]}
    for f in frames
])
print(street.id)
`;

test('a newcomer goes from --demo to their own detection dataset and two models from Python', async () => {
  const wizard = new SetupWizard(page);
  const shell = new Shell(page);

  // The wizard is the first screen.
  await page.goto('/');
  await wizard.expectIntro();
  await wizard.start();
  await wizard.submitCompany('Street Lab');
  await wizard.submitUser(newcomer);
  await wizard.expectComplete();
  await wizard.goToDashboard();

  // The demo datasets are there, and the instance runs on an evaluation licence: no wall.
  await shell.gettingStarted().waitFor();
  await shell.nav.getByText(/^Evaluation — \d+ days left$/).waitFor();

  // Getting started → Set up SDK shows the commands to copy.
  await shell.gettingStarted().getByText('Set up SDK', { exact: true }).click();
  const sdk = new SdkDialog(page);
  await sdk.dialog().getByTestId('sdk-install-command').waitFor();
  const install = await sdk.installCommand();
  const configure = await sdk.configureCommand();
  await sdk.close();
  const list = new DatasetsList(page);
  await list.goto();
  // The demo datasets keep arriving in the background; the first are already listed.
  expect(await list.cards().count()).toBeGreaterThanOrEqual(1);

  // pip install and loupe configure exactly as shown.
  const indexUrl = /--index-url (\S+)/.exec(install)?.[1] ?? '';
  expect(indexUrl).toBe(`${new URL(page.url()).origin}/sdk/python/simple/`);
  const site = join(workDir, 'site');
  execFileSync(
    'python3',
    [
      ...['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-cache-dir'],
      ...['--index-url', indexUrl, '--target', site, 'loupe'],
    ],
    { stdio: 'pipe' },
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PYTHONPATH: site,
    XDG_CONFIG_HOME: join(workDir, 'config'),
  };
  for (const name of ['LOUPE_URL', 'LOUPE_API_KEY']) delete env[name];
  const [command, ...args] = configure.split(/\s+/);
  expect(command).toBe('loupe');
  execFileSync('python3', ['-m', 'loupe', ...args], { env, stdio: 'pipe' });

  const script = join(workDir, 'street.py');
  writeFileSync(script, UPLOAD_SCRIPT);
  const output = execFileSync('python3', [script], { env, encoding: 'utf8' });
  expect(output).toContain("'created': 8");
  const datasetId = output.trim().split('\n').at(-1) ?? '';

  // Their dataset is listed beside the demo and its overview counts what they sent.
  await list.goto();
  await list.card('street-mini').click();
  await page.waitForURL(`**/datasets/${datasetId}/overview`);
  const overview = new DatasetOverview(page);
  await overview.expectShown('street-mini');
  await overview.expectStatistic('Samples', 8);
  await overview.expectStatistic('Classes', 2);
  await overview.expectStatistic('Predictions', 2);
  await overview.expectStatistic('Ground-truth objects', 16);

  // Both models are there to choose from, by name.
  await shell.nav.getByText('Performance', { exact: true }).click();
  const choose = page.getByRole('dialog', { name: 'Choose model' });
  await choose.getByText('detector-a').waitFor();
  await choose.getByText('detector-b').click();
  await page.waitForURL(`**/models/datasets/${datasetId}/predictions/*/performance`);
  await page.locator('.ant-breadcrumb').getByText('detector-b').first().waitFor();
});
