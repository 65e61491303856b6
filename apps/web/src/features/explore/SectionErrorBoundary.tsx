// Keeps a rendering bug inside one part of the explorer (the filters, the grid, the page) and
// shows that part's failure text instead.
import { Component, type ReactNode } from 'react';

export class SectionErrorBoundary extends Component<
  { fallback: (error: unknown) => ReactNode; children: ReactNode },
  { error: unknown; failed: boolean }
> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override render() {
    if (this.state.failed) return this.props.fallback(this.state.error);
    return this.props.children;
  }
}
