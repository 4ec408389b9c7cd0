/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API origin when it is not the page's own (the dev server proxies /v1 to it). */
  readonly VITE_API_URL?: string;
  /** Live connection URL when it is not ws(s)://<page host>/cable. */
  readonly VITE_CABLE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
