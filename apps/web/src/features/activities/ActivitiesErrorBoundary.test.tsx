import '../../test/setup';
import { render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { ActivitiesErrorBoundary } from './ActivitiesErrorBoundary';

function Broken(): never {
  throw new Error('bad activity');
}

test('a rendering bug in the list shows the activities error instead of breaking the page', () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  render(
    <ActivitiesErrorBoundary>
      <Broken />
    </ActivitiesErrorBoundary>,
  );
  expect(
    screen.getByText('An internal error occurred while rendering the activities.'),
  ).toBeTruthy();
});
