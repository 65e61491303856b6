// The last line of defence: a render error outside the router still shows the bug screen.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { BugScreen } from './BugScreen';

interface State {
  error: unknown;
  failed: boolean;
}

export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Render error', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.failed) return <BugScreen error={this.state.error} />;
    return this.props.children;
  }
}
