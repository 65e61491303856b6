// The embeddings map on the Explore page: waits for the WebGL scatter to draw (its canvas's
// data-drawn-points), lassos a region with Shift+drag, and clicks a point at its screen position,
// computed the way the map places points (fitted into [-0.9, 0.9], the canvas height spanning
// [-1, 1] around the centre).
import type { Locator, Page } from 'playwright-core';
import { legendColors } from './ExplorePage';

const FIT = 0.9;

export interface MapPoint {
  id: string;
  /** Fitted coordinates, as the map draws them. */
  x: number;
  y: number;
}

/** The points answer's lines ('id|x|y|colorKey') fitted as the map fits them. */
export function fitPoints(lines: readonly string[]): MapPoint[] {
  const raw = lines.map((line) => {
    const [y, x, ...id] = line.split('|').slice(0, -1).reverse();
    return { id: id.reverse().join('|'), x: Number(x), y: Number(y) };
  });
  const xs = raw.map((p) => p.x);
  const ys = raw.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [
    Math.min(...xs),
    Math.max(...xs),
    Math.min(...ys),
    Math.max(...ys),
  ];
  const extent = Math.max(maxX - minX, maxY - minY);
  const factor = extent > 0 ? (2 * FIT) / extent : 0;
  return raw.map((p) => ({
    id: p.id,
    x: (p.x - (minX + maxX) / 2) * factor,
    y: (p.y - (minY + maxY) / 2) * factor,
  }));
}

export class EmbeddingsMap {
  constructor(private readonly page: Page) {}

  canvas(): Locator {
    return this.page.getByTestId('embeddings-canvas');
  }

  /** The map legend's swatch colour (computed CSS) of each category, once `values` are listed. */
  async legendColors(values: readonly string[]): Promise<Map<string, string>> {
    return legendColors(this.page, 'embeddings-legend', values);
  }

  /** Waits until the scatter drew its points; returns how many. */
  async drawn(timeout = 240_000): Promise<number> {
    await this.page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="embeddings-canvas"]')
          ?.getAttribute('data-drawn-points') ?? null,
      undefined,
      { timeout },
    );
    return Number(await this.canvas().getAttribute('data-drawn-points'));
  }

  private async box() {
    const box = await this.canvas().boundingBox();
    if (!box) throw new Error('The map canvas is not laid out');
    return box;
  }

  /** Screen position of a fitted point at the default view. */
  async screenOf(
    point: { x: number; y: number },
    canvasBox?: { x: number; y: number; width: number; height: number },
  ): Promise<{ x: number; y: number }> {
    const box = canvasBox ?? (await this.box());
    const half = box.height / 2;
    return { x: box.x + box.width / 2 + point.x * half, y: box.y + half - point.y * half };
  }

  /** Shift+drags a lasso around the rectangle given in fractions of the canvas. */
  async lasso(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    const box = await this.box();
    const at = (fx: number, fy: number) =>
      [box.x + fx * box.width, box.y + fy * box.height] as const;
    const corners = [
      at(from.x, from.y),
      at(to.x, from.y),
      at(to.x, to.y),
      at(from.x, to.y),
      at(from.x, from.y),
    ];
    const mouse = this.page.mouse;
    await this.page.keyboard.down('Shift');
    await mouse.move(...corners[0]!);
    await mouse.down();
    for (let i = 1; i < corners.length; i++) {
      const [x0, y0] = corners[i - 1]!;
      const [x1, y1] = corners[i]!;
      for (let step = 1; step <= 8; step++) {
        await mouse.move(x0 + ((x1 - x0) * step) / 8, y0 + ((y1 - y0) * step) / 8);
      }
    }
    await mouse.up();
    await this.page.keyboard.up('Shift');
  }

  /** Moves the pointer over the map at a fraction of its size. */
  async hover(at: { x: number; y: number }): Promise<void> {
    const box = await this.box();
    await this.page.mouse.move(box.x + at.x * box.width, box.y + at.y * box.height, { steps: 4 });
  }

  async clickPoint(point: { x: number; y: number }): Promise<void> {
    const { x, y } = await this.screenOf(point);
    await this.page.mouse.move(x, y);
    await this.page.mouse.click(x, y);
  }
}
