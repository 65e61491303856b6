// Resets what component tests share: storage, stubs, the unreachable flag.
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { serverUnreachable } from '../api/unreachable';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.localStorage.clear();
  serverUnreachable.clear();
});
