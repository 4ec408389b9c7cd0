/** Reading an uploaded ZIP one entry at a time (yauzl): names first, then the streams of the entries wanted. */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

const MAX_ENTRIES = 10_000;
/** A single attachment larger than this is not stored (a ZIP bomb must not fill the disk). */
export const MAX_ENTRY_BYTES = 50 * 1024 * 1024;

/** Real files only: no folders, no macOS resource forks or hidden files. */
export const isUserFile = (name: string) =>
  !name.endsWith('/') && !name.startsWith('__MACOSX/') && !(name.split('/').pop() ?? '').startsWith('.');

export const baseName = (name: string) => name.split('/').pop() ?? name;

export function zipEntries(file: string): Promise<string[]> {
  const names: string[] = [];
  return walk(file, async (entry) => {
    if (names.length >= MAX_ENTRIES) throw new Error(`the ZIP holds more than ${MAX_ENTRIES} files`);
    if (isUserFile(entry.fileName)) names.push(entry.fileName);
  }).then(() => names);
}

/** Calls `use` with the stream of every entry `want` accepts, one after another. */
export function eachEntry(
  file: string,
  want: (name: string) => boolean,
  use: (name: string, stream: Readable, size: number) => Promise<void>,
): Promise<void> {
  return walk(file, async (entry, zip) => {
    if (!isUserFile(entry.fileName) || !want(entry.fileName)) return;
    if (entry.uncompressedSize > MAX_ENTRY_BYTES) return;
    const stream = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (err, s) => (err || !s ? reject(err) : resolve(s))),
    );
    await use(entry.fileName, stream, entry.uncompressedSize);
  });
}

function walk(file: string, onEntry: (entry: yauzl.Entry, zip: yauzl.ZipFile) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      zip.on('entry', (entry: yauzl.Entry) => {
        onEntry(entry, zip).then(
          () => zip.readEntry(),
          (e) => {
            zip.close();
            reject(e);
          },
        );
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
