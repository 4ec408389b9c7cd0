/** Business constants and limits, crm-core.md §9 and crm-wallet-dialer-admin.md §9. Binding as written. */
export const MAX_TRANSFER_LIMIT = 250_000;
export const MAX_EXPORT_LIMIT = 999_999;
export const MAX_PRINT_LIMIT = 500;
export const SYSTEM_VERSION = '0.2.37';
export const DEBOUNCE_MS = 500;
export const PHONE_DIAL_MIN = 9;
export const PHONE_DIAL_MAX = 16;
export const CALL_TIMEOUT_S = 60;
export const LIVE_RECONNECT_MS = 1_000;
export const TRANSFER_PAGE_SIZE = 15;
export const TRANSFER_DETAIL_PAGE_SIZE = 50;
export const LOGS_DEFAULT_LIMIT = 5;
export const WALLET_TRANSACTIONS_PAGE_SIZE = 20;
export const FETCH_DEFAULTS = {
  dedupeMs: 2_000,
  focusThrottleMs: 5_000,
  errorRetryMs: 5_000,
  errorRetrySlowMs: 10_000,
  loadingSlowMs: 3_000,
  loadingSlowSlowMs: 5_000,
} as const;
export const RETRY_BACKOFF = { minMs: 100, maxMs: 10_000, factor: 2 } as const;

export const ACCESS_DENIED = 'Access denied!';
export const GENERIC_ERROR_TITLE = 'An Error Occurred';
export const GENERIC_ERROR_TEXT =
  "The application detected an error, and it's been reported to the application development team.";

/** Passwords: argon2id; long passphrases allowed (the issue asks for at least 64 characters). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
/** Failed sign-ins for one account within an hour before even the right password is refused. */
export const MAX_FAILED_SIGNINS_PER_HOUR = 100;
