// The API for journeys that prepare data or check outcomes without the browser (license, waits,
// a script holding an API key): the typed client of @loupe/contracts against the test server.
import {
  api,
  cookieJar,
  createClient,
  type ApiClient,
  type Dataset,
  type Transport,
} from '@loupe/contracts';
import type { LoupeServer } from './server';

/** A client of the server: anonymous, or with the headers given (an `X-API-Key`). */
export function apiClient(server: LoupeServer, transport: Transport = {}): ApiClient {
  return createClient({ baseUrl: server.apiUrl, ...transport });
}

/** A signed-in session: its cookie is kept and sent like a browser's. */
export class ApiSession {
  readonly call: ApiClient['call'];

  private constructor(
    private readonly server: LoupeServer,
    client: ApiClient,
  ) {
    this.call = client.call;
  }

  static async signIn(server: LoupeServer, email: string, password: string): Promise<ApiSession> {
    const client = apiClient(server, { cookies: cookieJar() });
    await client.call(api.auth.login, { body: { email, password } });
    return new ApiSession(server, client);
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
    const current = await this.call(api.settings.license);
    const route = current.key ? api.settings.replaceLicense : api.settings.submitLicense;
    await this.call(route, { body: { key } });
    return key;
  }

  datasets(): Promise<Dataset[]> {
    return this.call(api.datasets.list);
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
        this.call(api.activities.list, { query: { scope: 'all', limit: 1000 } }),
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
