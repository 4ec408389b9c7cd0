import { type ComponentType, lazy } from 'react';

/** A named export of a lazily loaded module as a component (the pages export by name, React.lazy wants default). */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
