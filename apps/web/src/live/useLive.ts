import { useEffect, useSyncExternalStore } from 'react';
import { type CableState, cable } from './cable';

export function useCableState(): CableState {
  return useSyncExternalStore(
    (onChange) => cable.onStateChange(onChange),
    () => cable.getState(),
    () => cable.getState(),
  );
}

/**
 * Mounted by the signed-in shell only, so public pages never open the live connection. The notifications channel
 * belongs to the shell; feature channels subscribe on their own through `subscribe`. The connection code is loaded
 * here rather than imported (live/connection.ts says why).
 */
export function useLiveConnection(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let unmounted = false;
    import('./connection').then(
      (m) => {
        if (!unmounted) stop = m.startLiveConnection();
      },
      () => console.warn('Live connection: its code did not load'),
    );
    return () => {
      unmounted = true;
      stop?.();
    };
  }, []);
}
