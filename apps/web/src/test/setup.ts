// Resets what component tests share: storage, stubs, the unreachable flag.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { serverUnreachable } from '../api/unreachable';

// antd renders a lot; under a full parallel run, give findBy* more than the default second.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.localStorage.clear();
  serverUnreachable.clear();
});
