import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, rerender, unmount } from '../test/dom';
import { AbortedRequestError, ApiError } from './client';
import { createQueryClient, errorRetryDelay, loadingSlowAfterMs, shouldRetry } from './queryClient';
import { useSlowLoading } from './useSlowLoading';

const apiError = (status: number) => new ApiError(status, { errors: { user: ['x'] } }, null);

function setConnection(effectiveType: string | undefined) {
  Object.defineProperty(navigator, 'connection', {
    value: effectiveType ? { effectiveType } : undefined,
    configurable: true,
  });
}

afterEach(() => setConnection(undefined));

describe('fetch defaults', () => {
  it('dedupes for 2 s', () => {
    expect(createQueryClient().getDefaultOptions().queries?.staleTime).toBe(2000);
  });

  it('does not retry 4xx, retries 5xx and network failures', () => {
    expect(shouldRetry(0, apiError(404))).toBe(false);
    expect(shouldRetry(0, apiError(422))).toBe(false);
    expect(shouldRetry(0, apiError(500))).toBe(true);
    expect(shouldRetry(0, apiError(0))).toBe(true);
    expect(shouldRetry(3, apiError(500))).toBe(false);
  });

  it('waits 5 s before a retry, 10 s on a slow connection', () => {
    expect(errorRetryDelay(apiError(500))).toBe(5000);
    for (const slow of ['slow-2g', '2g', '3g']) {
      setConnection(slow);
      expect(errorRetryDelay(apiError(500))).toBe(10000);
    }
    setConnection('4g');
    expect(errorRetryDelay(apiError(500))).toBe(5000);
  });

  it('repeats a request cut short by navigation at once', () => {
    expect(errorRetryDelay(new AbortedRequestError('GET', '/v1/x'))).toBe(0);
  });

  it('calls loading slow after 3 s, 5 s on a slow connection', () => {
    expect(loadingSlowAfterMs()).toBe(3000);
    setConnection('2g');
    expect(loadingSlowAfterMs()).toBe(5000);
  });
});

function Probe({ loading }: { loading: boolean }) {
  return <span>{useSlowLoading(loading) ? 'slow' : 'fine'}</span>;
}

describe('useSlowLoading', () => {
  afterEach(async () => {
    await unmount();
    vi.useRealTimers();
  });

  it('turns true after 3 s of loading and false when loading ends', async () => {
    vi.useFakeTimers();
    const el = await mount(<Probe loading />);
    await act(async () => vi.advanceTimersByTime(2999));
    expect(el.textContent).toBe('fine');
    await act(async () => vi.advanceTimersByTime(1));
    expect(el.textContent).toBe('slow');
    await rerender(<Probe loading={false} />);
    expect(el.textContent).toBe('fine');
  });
});
