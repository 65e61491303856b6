import { describe, expect, test } from 'vitest';
import { configureCommand, installCommand } from './sdkCommands';

describe('the install command', () => {
  test('trusts a plain-http host that is not this machine', () => {
    expect(installCommand('http://loupe.acme.internal:8080/sdk/python/simple/')).toBe(
      'pip install --index-url http://loupe.acme.internal:8080/sdk/python/simple/ --trusted-host loupe.acme.internal loupe',
    );
  });

  test.each([
    'http://localhost:8080/sdk/python/simple/',
    'http://127.0.0.1:18090/sdk/python/simple/',
    'https://loupe.acme.com/sdk/python/simple/',
  ])('needs no trusted host for %s', (url) => {
    expect(installCommand(url)).toBe(`pip install --index-url ${url} loupe`);
  });
});

describe('the configure command', () => {
  test('carries the address, the API key and the license key', () => {
    expect(configureCommand('http://loupe.acme.com', 'lp_abc', 'eyJ.sig')).toBe(
      'loupe configure --url http://loupe.acme.com --api-key lp_abc --license-key eyJ.sig',
    );
  });

  test('leaves out the license flag when there is no key', () => {
    expect(configureCommand('http://loupe.acme.com', 'lp_abc', '')).toBe(
      'loupe configure --url http://loupe.acme.com --api-key lp_abc',
    );
  });
});
