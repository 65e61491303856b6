// The question before pending changes are dropped (docs/curation.md): 'Discard changes', how many
// changes have not been applied, and a danger button in the caller's words ('Discard and leave',
// 'Discard and continue').
import type { App } from 'antd';
import { curationStrings as strings } from './strings';

type Modal = ReturnType<typeof App.useApp>['modal'];

export interface DiscardQuestion {
  count: number;
  onDiscard(): void;
  onCancel?(): void;
  title?: string;
  okText?: string;
}

export function confirmDiscard(modal: Modal, question: DiscardQuestion): void {
  void modal.confirm({
    title: question.title ?? strings.discardChanges,
    content: strings.leaveText(question.count),
    okText: question.okText ?? strings.discardAndLeave,
    okButtonProps: { danger: true },
    cancelText: strings.cancel,
    onOk: question.onDiscard,
    ...(question.onCancel ? { onCancel: question.onCancel } : {}),
  });
}
