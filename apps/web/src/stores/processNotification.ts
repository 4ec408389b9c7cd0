/**
 * The process notification of spec §4: one global card for long work (imports, exports) that later features open,
 * update and close.
 */
import { createStore, useStore } from './createStore';

export type ProcessStatus = 'processing' | 'success' | 'error';

export interface ProcessNotificationState {
  visible: boolean;
  status: ProcessStatus;
  text: string;
  linkUrl: string | null;
  linkText: string | null;
}

export const initialProcessNotification: ProcessNotificationState = {
  visible: false,
  status: 'processing',
  text: '',
  linkUrl: null,
  linkText: null,
};

export const processNotificationStore = createStore<ProcessNotificationState>(initialProcessNotification);

export interface OpenProcessNotification {
  text: string;
  status?: ProcessStatus;
  linkUrl?: string | null;
  linkText?: string | null;
}

export function openProcessNotification(options: OpenProcessNotification): void {
  processNotificationStore.set({
    visible: true,
    status: options.status ?? 'processing',
    text: options.text,
    linkUrl: options.linkUrl ?? null,
    linkText: options.linkText ?? null,
  });
}

export function closeProcessNotification(): void {
  processNotificationStore.set(initialProcessNotification);
}

export function useProcessNotification() {
  const state = useStore(processNotificationStore);
  return { ...state, open: openProcessNotification, close: closeProcessNotification };
}
