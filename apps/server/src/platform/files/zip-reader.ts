/**
 * Reading an uploaded ZIP (or XLSX) with bounds: the central directory first (yauzl; entry count capped), then any
 * entry in any order as a stream whose unpacked size is capped before inflating (declared size, ZIP-bomb ratio) and
 * again while it streams (more bytes than declared is a damaged archive). Entries are inflated here rather than by
 * yauzl's stream, whose small reads made a 60 MB sheet take 1.8 s instead of 0.15 s. Every error of yauzl, of the
 * file and of zlib arrives as a rejected promise or a thrown FileRefused: none can reach the process.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { type Deadline, FILE_CAPS, FileRefused, mb, tooLarge } from './limits.js';

export interface ZipEntryInfo {
  /** The name as stored, with backslashes made slashes. */
  name: string;
  /** Unpacked size as declared (and enforced while reading). */
  size: number;
  packed: number;
  raw: yauzl.Entry;
}

export interface ReadLimits {
  maxBytes: number;
  /** How the entry is named in messages ("xl/sharedStrings.xml", "notes.pdf in the ZIP"). */
  what: string;
  deadline?: Deadline;
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true, decodeStrings: true },
      (err, zip) => (err || !zip ? reject(err ?? new Error('not a zip')) : resolve(zip)),
    ),
  );

export class ZipArchive {
  private readonly byName = new Map<string, ZipEntryInfo>();

  private constructor(
    private readonly file: string,
    readonly entries: ZipEntryInfo[],
  ) {
    for (const e of entries) {
      const key = normalName(e.name);
      if (!this.byName.has(key)) this.byName.set(key, e);
    }
  }

  /** Reads the directory; refuses what is not a ZIP, and more than `maxEntries` entries. */
  static async open(file: string, label: string, maxEntries: number = FILE_CAPS.zipEntries): Promise<ZipArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await openZip(file);
    } catch {
      throw new FileRefused(`${label} is not a readable ZIP archive`);
    }
    // Later errors of the archive itself (a read failing) are reported through the streams; never unhandled.
    zip.on('error', () => undefined);
    if (zip.entryCount > maxEntries) {
      zip.close();
      throw tooLarge(
        `${label} holds ${zip.entryCount.toLocaleString('en-US')} entries; at most ${maxEntries.toLocaleString('en-US')} can be read`,
      );
    }
    try {
      const entries = await new Promise<ZipEntryInfo[]>((resolve, reject) => {
        const out: ZipEntryInfo[] = [];
        const done = (err?: Error) => {
          zip.removeAllListeners('entry');
          zip.removeAllListeners('end');
          if (err) reject(err);
          else resolve(out);
        };
        zip.on('entry', (entry: yauzl.Entry) => {
          out.push({
            name: entry.fileName.replace(/\\/g, '/'),
            size: entry.uncompressedSize,
            packed: entry.compressedSize,
            raw: entry,
          });
          if (out.length > maxEntries) done(tooLarge(`${label} holds more than ${maxEntries} entries`));
          else zip.readEntry();
        });
        zip.once('end', () => done());
        zip.once('error', (e: Error) => done(e));
        zip.readEntry();
      });
      return new ZipArchive(file, entries);
    } catch (err) {
      if (err instanceof FileRefused) throw err;
      throw new FileRefused(`${label} is not a readable ZIP archive (${(err as Error).message})`);
    } finally {
      // The directory is all yauzl is for: entries are read from the file directly.
      zip.close();
    }
  }

  /** An entry by part name, as OPC compares them: case-insensitive, with or without a leading slash. */
  find(name: string): ZipEntryInfo | undefined {
    return this.byName.get(normalName(name));
  }

  /** The unpacked bytes of an entry, chunk by chunk, within `limits`. */
  async *chunks(entry: ZipEntryInfo, limits: ReadLimits): AsyncGenerator<Buffer> {
    checkEntry(entry, limits);
    if (entry.packed === 0) return;
    const start = await dataOffset(this.file, entry.raw.relativeOffsetOfLocalHeader).catch(() => {
      throw new FileRefused(`${limits.what} cannot be unpacked: the archive is damaged`);
    });
    const source = fs.createReadStream(this.file, {
      start,
      end: start + entry.packed - 1,
      highWaterMark: 1024 * 1024,
    });
    const stored = entry.raw.compressionMethod === 0;
    const inflate = stored ? null : zlib.createInflateRaw({ chunkSize: 256 * 1024 });
    if (inflate) {
      source.on('error', (e) => inflate.destroy(e));
      source.pipe(inflate);
    }
    let total = 0;
    try {
      for await (const chunk of inflate ?? source) {
        total += (chunk as Buffer).length;
        if (total > limits.maxBytes) throw overCap(limits);
        if (total > entry.size) throw new Error('it unpacks to more than it declares');
        limits.deadline?.check();
        yield chunk as Buffer;
      }
      if (total !== entry.size) throw new Error('it unpacks to less than it declares');
    } catch (err) {
      if (err instanceof FileRefused) throw err;
      throw new FileRefused(`${limits.what} cannot be unpacked: the archive is damaged (${(err as Error).message})`);
    } finally {
      source.destroy();
      inflate?.destroy();
    }
  }

  /** A small entry whole. */
  async read(entry: ZipEntryInfo, limits: ReadLimits): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const c of this.chunks(entry, limits)) parts.push(c);
    return Buffer.concat(parts);
  }

  /** Nothing stays open between reads; kept so callers can say when they are done. */
  close() {}
}

/** Where an entry's data starts: after its local header, whose name and extra field lengths may differ from the directory's. */
async function dataOffset(file: string, headerAt: number): Promise<number> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const h = Buffer.alloc(30);
    const { bytesRead } = await fh.read(h, 0, 30, headerAt);
    if (bytesRead < 30 || h.readUInt32LE(0) !== 0x04034b50) throw new Error('no local header');
    return headerAt + 30 + h.readUInt16LE(26) + h.readUInt16LE(28);
  } finally {
    await fh.close();
  }
}

const normalName = (name: string) => name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();

const overCap = (l: ReadLimits) => tooLarge(`${l.what} unpacks to more than ${mb(l.maxBytes)}, the most that is read`);

/** Refuses an entry before inflating a byte: encrypted, an unknown method, too large, or a bomb's ratio. */
function checkEntry(entry: ZipEntryInfo, limits: ReadLimits) {
  if (entry.raw.isEncrypted()) throw new FileRefused(`${limits.what} is encrypted; save it without a password`);
  if (entry.raw.compressionMethod !== 0 && entry.raw.compressionMethod !== 8) {
    throw new FileRefused(`${limits.what} uses a compression method that cannot be read`);
  }
  if (entry.size > limits.maxBytes) throw overCap(limits);
  if (entry.size > FILE_CAPS.bombMinBytes && entry.size > Math.max(entry.packed, 1) * FILE_CAPS.bombRatio) {
    throw tooLarge(`${limits.what} would unpack from ${mb(entry.packed)} to ${mb(entry.size)}: refused as a ZIP bomb`);
  }
}
