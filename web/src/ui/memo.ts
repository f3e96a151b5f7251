/** A component that renders again only when one of its props changed (shallow): the feed's rows, which a change elsewhere left alone. */
import { Component, h, type FunctionComponent } from 'preact';

export function memo<P extends object>(render: FunctionComponent<P>): FunctionComponent<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      const now = this.props as Record<string, unknown>;
      const then = next as Record<string, unknown>;
      for (const key in then) if (then[key] !== now[key]) return true;
      for (const key in now) if (!(key in then)) return true;
      return false;
    }

    override render() {
      return h(render, this.props);
    }
  }
  return Memo as unknown as FunctionComponent<P>;
}
