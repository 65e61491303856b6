import { describe, expect, test } from 'vitest';
import { appState, adminUser } from '../../test/fakeServer';
import { firstRedirect, guardRedirect } from './guards';
import { loginPathFor, redirectTarget } from './redirect';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });
const fresh = appState({ setup_state: 'INITIAL' });
const signedOut = appState();
const signedIn = appState({ user: adminUser });
const oauth = (loggedIn: boolean, setup: 'INITIAL' | 'COMPLETE' = 'INITIAL') =>
  appState({
    setup_state: setup,
    auth_state: {
      type: 'oauth',
      oauth_provider_display_name: 'Okta',
      is_oauth_logged_in: loggedIn,
    },
  });

describe('must be initialized', () => {
  test('sends visitors of an empty instance to the setup wizard', () => {
    expect(guardRedirect('initialized', fresh, at('/datasets'))).toBe('/setup');
  });
  test('sends them to login instead when an external provider is used and they are not logged in', () => {
    expect(guardRedirect('initialized', oauth(false), at('/datasets'))).toBe('/login');
    expect(guardRedirect('initialized', oauth(false), at('/login'))).toBeNull();
    expect(guardRedirect('initialized', oauth(true), at('/datasets'))).toBe('/setup');
  });
  test('lets everyone through once set up', () => {
    expect(guardRedirect('initialized', signedOut, at('/login'))).toBeNull();
  });
});

describe('must be not initialized', () => {
  test('lets visitors of an empty instance into the wizard', () => {
    expect(guardRedirect('notInitialized', fresh, at('/setup'))).toBeNull();
  });
  test('sends visitors of a set-up instance to the default page', () => {
    expect(guardRedirect('notInitialized', signedOut, at('/setup'))).toBe('/datasets');
    expect(guardRedirect('notInitialized', signedIn, at('/setup'))).toBe('/datasets');
  });
  test('asks for the provider login first with an external provider', () => {
    expect(guardRedirect('notInitialized', oauth(false), at('/setup'))).toBe('/login');
    expect(guardRedirect('notInitialized', oauth(true), at('/setup'))).toBeNull();
  });
});

describe('must be authenticated', () => {
  test('sends anonymous visitors to login with path, query and hash in the redirect parameter', () => {
    const target = guardRedirect(
      'authenticated',
      signedOut,
      at('/settings/users', '?q=a b', '#top'),
    );
    expect(target).toBe(`/login?redirect=${encodeURIComponent('/settings/users?q=a b#top')}`);
    expect(redirectTarget(new URL(target ?? '', 'http://x').search)).toBe(
      '/settings/users?q=a b#top',
    );
  });
  test('lets signed-in users through', () => {
    expect(guardRedirect('authenticated', signedIn, at('/datasets'))).toBeNull();
  });
});

describe('must be not authenticated', () => {
  test('sends signed-in users on to the redirect target, or the default page', () => {
    expect(guardRedirect('notAuthenticated', signedIn, at('/login'))).toBe('/datasets');
    expect(
      guardRedirect('notAuthenticated', signedIn, at('/login', '?redirect=%2Fmodels%3Fa%3D1%23h')),
    ).toBe('/models?a=1#h');
    expect(guardRedirect('notAuthenticated', signedOut, at('/login'))).toBeNull();
  });
});

test('guards apply in order', () => {
  expect(firstRedirect(['initialized', 'authenticated'], fresh, at('/datasets'))).toBe('/setup');
  expect(firstRedirect(['initialized', 'authenticated'], signedOut, at('/models'))).toBe(
    '/login?redirect=%2Fmodels',
  );
});

describe('the redirect parameter', () => {
  test('is left out for the default page', () => {
    expect(loginPathFor(at('/datasets'))).toBe('/login');
    expect(loginPathFor(at('/'))).toBe('/login');
  });
  test('never leads off the app', () => {
    for (const bad of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      'javascript:alert(1)',
    ]) {
      expect(redirectTarget(`?redirect=${encodeURIComponent(bad)}`)).toBe('/datasets');
    }
    expect(redirectTarget('?redirect=%2Flogin')).toBe('/datasets');
    expect(redirectTarget('')).toBe('/datasets');
  });
});
