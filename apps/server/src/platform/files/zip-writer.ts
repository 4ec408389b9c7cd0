/**
 * A streaming ZIP writer (APPNOTE 6.3): each entry is deflated as it is written and its CRC and sizes follow it in a
 * data descriptor (flag bit 3), so nothing is held in memory but zlib's window and the chunk in hand. The central
 * directory is written at the end from the few numbers kept per entry.
 *
 * No ZIP64: an entry, or the archive, of 4 GiB or more is refused with ZipTooLargeError (the stream is failed, so the
 * client sees a broken download rather than a corrupt file). Our largest use, a 999,999-row sheet, is about 1 GB of
 * XML; writing ZIP64 only when a size turns out too big would need the ZIP64 extra field reserved in every local header
 * up front, which some readers reject for small entries.
 */
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';

const LIMIT = 0xffffffff;
/** Bit 3: sizes and CRC in a data descriptor; bit 11: names are UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

export class ZipTooLargeError extends Error {
  constructor(what: string) {
    super(`${what} reached 4 GiB; this writer does not write ZIP64`);
  }
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 in plain JS, for Node older than 20.15 (no zlib.crc32). Exported for the test that compares the two. */
export function tableCrc32(data: Uint8Array, prev = 0): number {
  let c = ~prev;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
export const crc32: (data: Uint8Array, prev?: number) => number = nativeCrc32 ?? tableCrc32;

/** DOS date and time fields (local time, 2-second resolution), as ZIP stores them. */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Resolves when `out` can take more; rejects if it is destroyed first (the client went away). */
function drained(out: Writable): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error('output closed'));
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', done);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('output closed'));
    out.on('drain', onDrain);
    out.once('close', onClose);
    out.once('error', done);
  });
}

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

export interface ZipEntryWriter {
  /** Deflates `data`; resolves when zlib can take more (await it: that is the backpressure). */
  write(data: string | Buffer): Promise<void>;
  end(): Promise<void>;
}

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly stamp = dosDateTime(new Date());
  private open = false;

  /** `level`: zlib level; 1 is the speed choice (XML shrinks well at any level). */
  constructor(
    private readonly out: Writable,
    private readonly level = zlib.constants.Z_DEFAULT_COMPRESSION,
  ) {}

  private async put(buf: Buffer): Promise<void> {
    this.offset += buf.length;
    if (!this.out.write(buf)) await drained(this.out);
  }

  /** Starts an entry; entries are written one after the other, so end one before starting the next. */
  async entry(name: string): Promise<ZipEntryWriter> {
    if (this.open) throw new Error('previous zip entry not ended');
    if (this.offset >= LIMIT) throw new ZipTooLargeError('the archive');
    this.open = true;
    const entry: Entry = { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    // CRC and sizes (14..25) stay 0: they follow the data. Name length, then no extra field.
    header.writeUInt16LE(entry.name.length, 26);
    await this.put(Buffer.concat([header, entry.name]));

    const deflate = zlib.createDeflateRaw({ level: this.level });
    let failure: Error | undefined;
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
      // Stop pulling compressed bytes while the reader is behind; zlib's own buffer then pushes back on write().
      if (!this.out.write(chunk)) {
        deflate.pause();
        drained(this.out).then(
          () => deflate.resume(),
          (err: Error) => deflate.destroy(err),
        );
      }
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', (err) => {
        failure = err;
        reject(err);
      });
    });
    ended.catch(() => undefined); // observed through write()/end()

    return {
      write: async (data) => {
        if (failure) throw failure;
        const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        entry.size += buf.length;
        if (entry.size >= LIMIT) {
          deflate.destroy();
          throw new ZipTooLargeError(`zip entry ${name}`);
        }
        entry.crc = crc32(buf, entry.crc);
        if (!deflate.write(buf)) await Promise.race([new Promise((r) => deflate.once('drain', r)), ended]);
        if (failure) throw failure;
      },
      end: async () => {
        deflate.end();
        await ended;
        if (entry.compressed >= LIMIT) throw new ZipTooLargeError(`zip entry ${name}`);
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc, 4);
        descriptor.writeUInt32LE(entry.compressed, 8);
        descriptor.writeUInt32LE(entry.size, 12);
        await this.put(descriptor);
        this.entries.push(entry);
        this.open = false;
      },
    };
  }

  /** A whole (small) entry at once. */
  async file(name: string, content: string | Buffer): Promise<void> {
    const e = await this.entry(name);
    await e.write(content);
    await e.end();
  }

  /** Writes the central directory and ends `out`. */
  async finish(): Promise<void> {
    if (this.open) throw new Error('zip entry not ended');
    const start = this.offset;
    if (start >= LIMIT) throw new ZipTooLargeError('the archive');
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(VERSION, 4); // made by (MS-DOS attributes)
      h.writeUInt16LE(VERSION, 6); // needed to extract
      h.writeUInt16LE(FLAGS, 8);
      h.writeUInt16LE(DEFLATE, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      // Extra and comment lengths, disk number, attributes: all 0.
      h.writeUInt32LE(e.offset, 42);
      await this.put(Buffer.concat([h, e.name]));
    }
    const size = this.offset - start;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    this.out.end(end);
  }
}
