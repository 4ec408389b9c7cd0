/** The default storage adapter: files under DATA_DIR/files, written to a temp name then renamed (no torn files). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertKey, type StoragePort } from './port.js';

export class LocalDiskStorage implements StoragePort {
  constructor(readonly root: string) {}

  private pathOf(key: string, mode: 'write' | 'read' = 'read') {
    assertKey(key, mode);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer) {
    const file = this.pathOf(key, 'write');
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.promises.writeFile(tmp, data, { mode: 0o600 });
    await fs.promises.rename(tmp, file);
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.pathOf(key);
    try {
      await fs.promises.access(file, fs.constants.R_OK);
    } catch {
      return null;
    }
    return fs.createReadStream(file);
  }

  async delete(key: string) {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }
}
