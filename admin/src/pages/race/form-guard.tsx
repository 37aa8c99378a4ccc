/**
 * A form tab of the race page over a document typed in the JSON tab: while that document has a shape the form
 * cannot show (a field of the wrong type, a list that is not one), the tab says so instead of breaking the page.
 * Keyed by the document's text by its parent, so it tries again at the next change.
 */
import { Alert } from 'antd';
import { Component, type ReactNode } from 'react';

export class FormGuard extends Component<{ message: string; children: ReactNode }, { broken: boolean }> {
  override state = { broken: false };

  static getDerivedStateFromError() {
    return { broken: true };
  }

  override render() {
    if (this.state.broken)
      return <Alert type="warning" showIcon message={this.props.message} data-testid="race-form-broken" />;
    return this.props.children;
  }
}
