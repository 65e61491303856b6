// Keeps a rendering bug in the activities inside the popover (docs/product.md, Shell §8).
import { Result } from 'antd';
import { Component, type ReactNode } from 'react';
import { activityStrings as strings } from './strings';

export class ActivitiesErrorBoundary extends Component<
  { children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) {
      return <Result status="error" subTitle={strings.renderFailed} style={{ width: 386 }} />;
    }
    return this.props.children;
  }
}
