// What a user sees when a page breaks, and the report they can send.
import '../../test/setup';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, test, vi } from 'vitest';
import { ThemeProvider } from '../theme/ThemeProvider';
import { RouteErrorPage } from './RouteErrorPage';

function Broken(): never {
  throw new Error('Cannot read the chart', { cause: new Error('data is undefined') });
}

test('a page that throws shows Internal Error with the error report, support report and home', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const created: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    created.push(blob as Blob);
    return 'blob:report';
  });
  const router = createMemoryRouter([
    { path: '/', element: <Broken />, errorElement: <RouteErrorPage /> },
  ]);
  render(
    <ThemeProvider>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
  await screen.findByText('Internal Error');
  expect(screen.getByText('Oops, there seems to be a bug in our code')).toBeTruthy();
  expect(screen.getByText('Cannot read the chart')).toBeTruthy();
  expect(screen.getByRole('button', { name: /Download support report/ })).toBeTruthy();
  expect(screen.getByRole('link', { name: /Go to home/ }).getAttribute('href')).toBe('/');

  await userEvent.setup().click(screen.getByRole('button', { name: /Download error report/ }));
  expect(created).toHaveLength(1);
  const text = await created[0]!.text();
  expect(text).toContain('Message: Cannot read the chart');
  expect(text).toContain('Stack:');
  expect(text).toContain('Message: data is undefined');
});
