// The explorer → item viewer journey on the demo datasets: open an item from a filtered, sorted,
// coloured grid, step through it with the keyboard, hide and show boxes, close with Escape; play
// an audio clip with Space and read its word errors; search the sidebar metadata.
import { api, type Dataset } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { ExplorePage } from './pages/ExplorePage';
import { ItemViewer } from './pages/ItemViewer';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;

async function demoDatasets(): Promise<{ session: ApiSession; datasets: Dataset[] }> {
  const session = await ApiSession.signIn(journey.server, ADMIN.email, ADMIN.password);
  const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  return { session, datasets };
}

function named(datasets: Dataset[], name: string): Dataset {
  const dataset = datasets.find((candidate) => candidate.name === name);
  if (!dataset) throw new Error(`No demo dataset named ${name}`);
  return dataset;
}

// Generous: the demo datasets are generated and processed first, on a shared machine.
test(
  'item viewer: open from a filtered grid, step with arrows, toggle boxes, close',
  { timeout: 300_000 },
  async () => {
    const { page } = journey;
    const { datasets } = await demoDatasets();
    const detection = named(datasets, 'Demo · Shape detection');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    await explore.open(`/datasets/${detection.id}/explore`);
    const filtered = await explore.filterNumeric('Index', 0, 9);
    await explore.expectRendered(filtered, 10);
    await explore.sortBy('Index');
    await explore.sortDirection('Descending');
    await explore.closePopovers();
    await explore.colorBy('Split');

    const viewer = new ItemViewer(page);
    const firstCard = (await explore.firstCardIds(1))[0]!;
    const opened = await viewer.openByDoubleClick(explore.cards().first());
    expect(opened).toBe(firstCard);
    expect(await viewer.counter().textContent()).toBe('1/10');
    expect(page.url()).toContain(`item=${encodeURIComponent(opened)}`);

    const second = await viewer.next(0);
    const third = await viewer.next(1);
    expect(await viewer.counter().textContent()).toBe('3/10');
    expect(new Set([opened, second, third]).size).toBe(3);
    expect(await viewer.itemId()).toBe(third);
    // The viewer steps through the grid's order (Index descending), not another one.
    expect(third).toBe((await explore.firstCardIds(3))[2]);

    await viewer.boxes().first().waitFor();
    const boxes = await viewer.boxes().count();
    expect(boxes).toBeGreaterThan(0);
    await screenshot(page, 'item-viewer-detection');
    await page.keyboard.press('b');
    await viewer.boxes().first().waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Show boxes and masks (B)' }).count()).toBe(1);
    await page.keyboard.press('b');
    await viewer.boxes().first().waitFor();
    expect(await viewer.boxes().count()).toBe(boxes);

    await viewer.closeWithEscape();
    await page.waitForURL((url) => !url.searchParams.has('item'));
    // The explorer's own state stays in the URL.
    expect(page.url()).toContain('sort=');
    expect(page.url()).toContain('filter=');
  },
);

test(
  'item viewer on speech recognition with a prediction set: Space plays, word errors show',
  { timeout: 300_000 },
  async () => {
    const { session, datasets } = await demoDatasets();
    // A fresh context: each journey signs in from the login page.
    const page = await journey.newPage();
    const speech = named(datasets, 'Demo · Beep words');
    const sets = await session.call(api.predictionSets.listForDataset, {
      query: { dataset_id: speech.id },
    });
    expect(sets.length).toBeGreaterThan(0);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    await explore.open(`/models/datasets/${speech.id}/predictions/${sets[0]!.id}/explore`);
    // The worst transcript first, so its alignment has errors to show.
    await explore.sortBy('Word error rate');
    await explore.sortDirection('Descending');
    await explore.closePopovers();

    const viewer = new ItemViewer(page);
    await viewer.openByEnter(explore.cards().first());
    expect(await viewer.counter().textContent()).toBe(`1/${speech.samples_count}`);
    const types = await viewer.wordErrorTypes();
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(['I', 'D', 'S', '-']).toContain(type);
    expect(types.some((type) => type !== '-')).toBe(true);
    expect(types).toContain('-');

    const time = await viewer.playWithSpace();
    expect(time).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Pause (Space)' }).count()).toBe(1);
    await screenshot(page, 'item-viewer-speech');
    await viewer.closeWithEscape();
    await page.waitForURL((url) => !url.searchParams.has('item'));
  },
);

test(
  'item viewer on audio classification: the metadata search says when nothing matches',
  { timeout: 300_000 },
  async () => {
    const { datasets } = await demoDatasets();
    const page = await journey.newPage();
    const chords = named(datasets, 'Demo · Chords');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    const explore = new ExplorePage(page);
    await explore.open(`/datasets/${chords.id}/explore`);
    const viewer = new ItemViewer(page);
    await viewer.openByDoubleClick(explore.cards().first());
    const sidebar = page.getByTestId('viewer-sidebar');
    await sidebar.getByTestId('metadata-group').first().waitFor();
    await viewer.searchMetadata('zzqx-no-such-field');
    await sidebar.getByText('No matches found.').waitFor();
    expect(await sidebar.getByTestId('metadata-group').count()).toBe(0);
    await viewer.searchMetadata('');
    await sidebar.getByTestId('metadata-group').first().waitFor();
    await viewer.closeWithEscape();
  },
);

test(
  'item viewer on a short audio clip: the visible duration is the clip, axes label the strip',
  { timeout: 300_000 },
  async () => {
    const { datasets } = await demoDatasets();
    const chords = named(datasets, 'Demo · Chords');
    for (const theme of ['lightBlue', 'darkBlue'] as const) {
      const page = await journey.newPage({
        theme,
        colorScheme: theme === 'darkBlue' ? 'dark' : 'light',
      });
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.setViewportSize({ width: 1440, height: 900 });
      const explore = new ExplorePage(page);
      await explore.open(`/datasets/${chords.id}/explore`);
      // The shortest clip first (ascending is the default direction): shorter than the
      // dataset's longest, which sets the slider's top.
      await explore.sortBy('Duration');
      await explore.closePopovers();
      const viewer = new ItemViewer(page);
      await viewer.openByDoubleClick(explore.cards().first());

      const axes = await viewer.audioAxes();
      expect(axes.clip).toBeGreaterThan(0);
      expect(axes.clip).toBeLessThan(chords.max_duration!);
      // Shown whole, and the readout names the clip's length, not the dataset's longest clip.
      expect(axes.sliderMax).toBeCloseTo(axes.clip, 2);
      expect(axes.visible).toMatch(/^\d+\.\d{1,2} s$/);
      expect(Number.parseFloat(axes.visible)).toBeCloseTo(axes.clip, 2);
      expect(axes.timeTicks[0]).toBe('0 s');
      expect(axes.timeTicks.length).toBeGreaterThanOrEqual(3);
      // 16 kHz clips: a log axis from 40 Hz to 8 kHz.
      expect(axes.frequencyTicks).toContain('100 Hz');
      expect(axes.frequencyTicks).toContain('1 kHz');
      // The spectrogram takes the free height instead of leaving it empty under it.
      const layout = await viewer.audioLayout();
      expect(layout.spectrogram).toBeGreaterThan(300);
      expect(layout.freeBelow).toBeLessThan(80);
      await screenshot(page, `item-viewer-audio-${theme}`);
      if (theme === 'lightBlue') {
        await page.setViewportSize({ width: 1280, height: 720 });
        await page.waitForFunction(
          () =>
            (document.querySelector('[data-testid="spectrogram"]')?.getBoundingClientRect()
              .height ?? 0) < 400,
        );
        const small = await viewer.audioLayout();
        expect(small.spectrogram).toBeGreaterThanOrEqual(160);
        expect(small.freeBelow).toBeLessThan(80);
        await screenshot(page, 'item-viewer-audio-1280x720');
      }
      await viewer.closeWithEscape();
    }
  },
);

test(
  'semantic segmentation: cards show label maps; the viewer lists classes and a toggle hides one',
  { timeout: 300_000 },
  async () => {
    const { session, datasets } = await demoDatasets();
    const segmentation = named(datasets, 'Demo · Shape segmentation');
    const sets = await session.call(api.predictionSets.listForDataset, {
      query: { dataset_id: segmentation.id },
    });
    expect(sets.map((set) => set.name)).toEqual(['model-a', 'model-b']);
    for (const theme of ['lightBlue', 'darkBlue'] as const) {
      const page = await journey.newPage({
        theme,
        colorScheme: theme === 'darkBlue' ? 'dark' : 'light',
      });
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.setViewportSize({ width: 1440, height: 900 });
      const explore = new ExplorePage(page);
      // In a model's context, so the viewer has the predicted label map too.
      await explore.open(`/models/datasets/${segmentation.id}/predictions/${sets[1]!.id}/explore`);
      // The three rows in view, each card with its label map painted.
      for (let card = 0; card < 18; card++)
        await explore.cards().nth(card).getByTestId('card-label-map').waitFor();
      await screenshot(page, `explore-segmentation-cards-${theme}`);

      const viewer = new ItemViewer(page);
      await viewer.openByDoubleClick(explore.cards().first());
      const classes = await viewer.legendClasses();
      const truth = await viewer.labelMap('gt');
      expect(truth.classes.length).toBeGreaterThan(0);
      expect(truth.painted).toBeGreaterThan(0);
      // The legend lists what either map paints; background never.
      for (const name of truth.classes) expect(classes).toContain(name);
      expect(classes).not.toContain('background');
      const predicted = await viewer.labelMap('pred');
      expect(predicted.painted).toBeGreaterThan(0);
      await screenshot(page, `item-viewer-segmentation-${theme}`);

      const hidden = truth.classes[0]!;
      await viewer.toggleClass(hidden);
      const after = await viewer.labelMap('gt', { without: hidden, paintedBelow: truth.painted });
      expect(after.classes).toEqual(truth.classes.slice(1));
      await viewer.toggleClass(hidden);
      expect((await viewer.labelMap('gt', { paintedBelow: truth.painted + 1 })).classes).toContain(
        hidden,
      );
      await viewer.closeWithEscape();
    }
  },
);

test(
  'detection with a prediction set: label chips of close boxes do not overlap',
  { timeout: 300_000 },
  async () => {
    const { session, datasets } = await demoDatasets();
    const detection = named(datasets, 'Demo · Shape detection');
    const sets = await session.call(api.predictionSets.listForDataset, {
      query: { dataset_id: detection.id },
    });
    const page = await journey.newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1440, height: 900 });
    const explore = new ExplorePage(page);
    // Predictions sit a few pixels from their ground truths: close boxes on every item.
    await explore.open(`/models/datasets/${detection.id}/predictions/${sets[0]!.id}/explore`);
    const viewer = new ItemViewer(page);
    await viewer.openByDoubleClick(explore.cards().first());
    await viewer.boxes().first().waitFor();
    const chips = await viewer.labelChips();
    expect(chips.length).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < chips.length; i++) {
      for (let j = i + 1; j < chips.length; j++) {
        const [a, b] = [chips[i]!, chips[j]!];
        const apart =
          a.right <= b.left + 0.5 ||
          b.right <= a.left + 0.5 ||
          a.bottom <= b.top + 0.5 ||
          b.bottom <= a.top + 0.5;
        expect(apart, `chips ${i} and ${j}`).toBe(true);
      }
    }
    await screenshot(page, 'item-viewer-detection-chips');
    await viewer.closeWithEscape();
  },
);
