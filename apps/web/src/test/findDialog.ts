// antd gives every modal the same title id under test, so find dialogs by their title text.
import { screen, waitFor, within } from '@testing-library/react';

export function findDialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen
      .getAllByRole('dialog')
      .find((candidate) =>
        within(candidate).queryByText(title, { selector: '.ant-modal-title, .ant-modal-title *' }),
      );
    if (!dialog) throw new Error(`No dialog titled ${title}`);
    return dialog;
  });
}
