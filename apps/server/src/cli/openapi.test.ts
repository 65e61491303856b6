import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_PATH, generateOpenApi } from './openapi.js';

describe('docs/api/openapi.json', () => {
  it('matches the schemas (run `npm run openapi` after changing a route or contract)', async () => {
    const generated = await generateOpenApi();
    expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(generated);
  });

  it('documents every route with its error responses', async () => {
    const document = JSON.parse(await generateOpenApi());
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/state',
        '/api/setup',
        '/api/login',
        '/api/users/{id}',
        '/api/settings/license',
      ]),
    );
    expect(document.paths['/api/users'].post.responses).toHaveProperty('409');
  });
});
