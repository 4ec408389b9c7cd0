/**
 * An uploaded ZIP of attachments (or of a list and its attachments), read through the bounded reader
 * (platform/files/zip-reader.ts): its user files, each at most a contact file's size, all of them together at most
 * ATTACHMENTS_MAX_MB unpacked, a name that appears twice used once.
 */
import { FILE_KINDS, MAX_FILE_BYTES } from '@harbor/shared';
import { FILE_CAPS, FileRefused, mb, tooLarge } from '../../platform/files/limits.js';
import { ZipArchive, type ZipEntryInfo } from '../../platform/files/zip-reader.js';

const MB = 1024 * 1024;

/** ATTACHMENTS_MAX_MB: what the files attached from one upload may add up to, unpacked (default 1 GB). */
export const maxAttachmentsBytes = () => Number(process.env.ATTACHMENTS_MAX_MB ?? 1024) * MB;

/** Real files only: no folders, no macOS resource forks or hidden files. */
export const isUserFile = (name: string) =>
  !name.endsWith('/') && !name.startsWith('__MACOSX/') && !(name.split('/').pop() ?? '').startsWith('.');

export const baseName = (name: string) => name.split('/').pop() ?? name;

export interface Refusal {
  file: string;
  reason: string;
}

export interface UserFiles {
  archive: ZipArchive;
  files: ZipEntryInfo[];
  /** Names that appear more than once in the ZIP (only the first copy is used). */
  repeated: Refusal[];
}

export async function openUserFiles(zipPath: string, label: string): Promise<UserFiles> {
  const archive = await ZipArchive.open(zipPath, label, FILE_CAPS.zipEntries);
  const seen = new Set<string>();
  const files: ZipEntryInfo[] = [];
  const repeated: Refusal[] = [];
  for (const e of archive.entries) {
    if (!isUserFile(e.name)) continue;
    const key = e.name.toLowerCase();
    if (seen.has(key))
      repeated.push({ file: e.name, reason: 'appears more than once in the ZIP; the first copy was used' });
    else {
      seen.add(key);
      files.push(e);
    }
  }
  return { archive, files, repeated };
}

/** Why an entry cannot become a contact file, judged before a byte of it is unpacked (null when it can). */
export function refuseEntry(e: ZipEntryInfo): string | null {
  const ext = baseName(e.name)
    .toLowerCase()
    .match(/\.([a-z0-9]{1,5})$/)?.[1];
  if (!ext || !(ext in FILE_KINDS)) {
    return `is not a kind of file a contact can hold (${Object.keys(FILE_KINDS).join(', ')})`;
  }
  if (e.size > MAX_FILE_BYTES) return `is ${mb(e.size)} unpacked; a contact file can be at most ${mb(MAX_FILE_BYTES)}`;
  return null;
}

/**
 * The entries that can become contact files, and why the others cannot; a ZIP with files of which none can is
 * refused whole (a ZIP of nested archives, of oversized bombs).
 */
export function attachable(zip: UserFiles, label: string): { eligible: ZipEntryInfo[]; refused: Refusal[] } {
  const refused = [...zip.repeated];
  const eligible = zip.files.filter((e) => {
    const why = refuseEntry(e);
    if (why) refused.push({ file: e.name, reason: why });
    return !why;
  });
  if (zip.files.length > 0 && eligible.length === 0) {
    const [first] = refused;
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more)` : '';
    throw new FileRefused(`${label} holds no file that can be attached: ${first.file} ${first.reason}${more}`);
  }
  return { eligible, refused };
}

/** Refuses the whole upload when the files it would unpack add up to more than the cap. */
export function assertTotal(entries: ZipEntryInfo[]) {
  const total = entries.reduce((n, e) => n + e.size, 0);
  const cap = maxAttachmentsBytes();
  if (total > cap) {
    throw tooLarge(`The files to attach unpack to ${mb(total)}; one upload can attach at most ${mb(cap)}`);
  }
}

/** One entry whole (callers keep it within MAX_FILE_BYTES). */
export function readEntry(archive: ZipArchive, e: ZipEntryInfo, maxBytes = MAX_FILE_BYTES): Promise<Buffer> {
  return archive.read(e, { maxBytes, what: `${baseName(e.name)} in the ZIP` });
}
