import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Keeps one home module's failure to itself: a module that throws (a shape the schema let through that
 * it did not expect) is left out and reported in the console; the rest of the page still shows.
 */
export class ModuleBoundary extends Component<{ name: string; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`[race-site] the home module "${this.props.name}" failed and is hidden:`, error, info.componentStack);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
