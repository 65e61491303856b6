// A signed-in API session for journeys that prepare data without the browser (license, waits).
import type { Activity, Dataset } from '@loupe/contracts';
import type { LoupeServer } from './server';

export class ApiSession {
  private constructor(
    private readonly server: LoupeServer,
    private readonly cookie: string,
  ) {}

  static async signIn(server: LoupeServer, email: string, password: string): Promise<ApiSession> {
    const response = await fetch(`${server.apiUrl}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password, remember: false }),
    });
    if (response.status >= 400) throw new Error(`Login failed: ${response.status}`);
    const cookie = response.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ');
    return new ApiSession(server, cookie);
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.server.apiUrl}${path}`, {
      method,
      headers: { cookie: this.cookie, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * Enters a fresh license key signed by the server's throwaway issuer (replacing one an earlier
   * journey on the same instance entered); answers the key.
   */
  async license(): Promise<string> {
    const key = this.server.license.issue({
      license_id: 'lic-e2e-datasets',
      company_name: 'Acme Inc.',
      expiration_ts: Math.floor(Date.now() / 1000) + 365 * 24 * 3600,
    });
    const current = await this.request<{ key: string }>('GET', '/api/settings/license');
    await this.request(current.key ? 'PUT' : 'POST', '/api/settings/license', { key });
    return key;
  }

  datasets(): Promise<Dataset[]> {
    return this.request<Dataset[]>('GET', '/api/datasets');
  }

  /**
   * Waits until `count` datasets exist and no job is pending (the demo seeds in the background);
   * polls the API as the harness polls /api/health.
   */
  async waitForSettledDatasets(count: number, timeoutMs = 180_000): Promise<Dataset[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [datasets, activities] = await Promise.all([
        this.datasets(),
        this.request<Activity[]>('GET', '/api/activities?scope=all&limit=1000'),
      ]);
      const settled = activities.every((activity) => activity.status !== 'PENDING');
      const previewed = datasets.every(
        (dataset) =>
          dataset.task_type.startsWith('audio') ||
          dataset.task_type === 'automatic_speech_recognition' ||
          dataset.preview_urls.length > 0,
      );
      if (datasets.length >= count && settled && previewed) return datasets;
      if (Date.now() > deadline) {
        throw new Error(
          `Datasets did not settle: ${datasets.length} datasets, ${activities.filter((a) => a.status === 'PENDING').length} pending jobs`,
        );
      }
      await new Promise((wake) => setTimeout(wake, 500));
    }
  }
}
