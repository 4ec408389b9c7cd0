import { useEffect, useState } from 'react';
import { loadingSlowAfterMs } from './queryClient';

/** True once `isLoading` has stayed true past the "loading slow" threshold (3 s, 5 s on a slow connection). */
export function useSlowLoading(isLoading: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!isLoading) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), loadingSlowAfterMs());
    return () => clearTimeout(timer);
  }, [isLoading]);
  return slow;
}
