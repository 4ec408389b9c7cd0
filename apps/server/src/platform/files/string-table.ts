/**
 * The shared strings of a workbook, packed: UTF-8 bytes in 1 MB blocks plus one 32-bit end offset per string. A
 * million strings cost their text and 4 MB, not a million JS strings with their headers (the first cut of this
 * reader held them as strings: +1.6 GB for 40 million tiny ones). Capped by count and by total text.
 */
import { FileRefused, tooLarge } from './limits.js';

const BLOCK = 1024 * 1024;

export class StringTable {
  private blocks: Buffer[] = [];
  private used = 0;
  /** Global end offset of string i (its start is the end of i - 1). */
  private ends = new Uint32Array(1024);
  private n = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxBytes: number,
  ) {}

  get size() {
    return this.n;
  }

  add(s: string) {
    if (this.n >= this.maxCount) {
      throw tooLarge(`the workbook holds more than ${this.maxCount.toLocaleString('en-US')} distinct texts`);
    }
    const bytes = Buffer.byteLength(s, 'utf8');
    const total = this.n === 0 ? 0 : this.ends[this.n - 1];
    if (total + bytes > this.maxBytes) {
      throw tooLarge(`the texts of the workbook add up to more than ${Math.round(this.maxBytes / 1048576)} MB`);
    }
    if (this.blocks.length > 0 && bytes <= BLOCK - this.used) {
      this.blocks[this.blocks.length - 1].write(s, this.used, 'utf8');
      this.used += bytes;
    } else if (bytes > 0) {
      // Spans blocks: copied as bytes, so no character is split by a decode.
      this.appendRaw(Buffer.from(s, 'utf8'));
    }
    if (this.n === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.n++] = total + bytes;
  }

  private appendRaw(bytes: Buffer) {
    let off = 0;
    while (off < bytes.length) {
      if (this.blocks.length === 0 || this.used === BLOCK) {
        this.blocks.push(Buffer.allocUnsafe(BLOCK));
        this.used = 0;
      }
      const block = this.blocks[this.blocks.length - 1];
      const take = Math.min(BLOCK - this.used, bytes.length - off);
      bytes.copy(block, this.used, off, off + take);
      this.used += take;
      off += take;
    }
  }

  get(i: number): string {
    if (!Number.isInteger(i) || i < 0 || i >= this.n) {
      throw new FileRefused(`a cell refers to shared text number ${i}, which the workbook does not have`);
    }
    const start = i === 0 ? 0 : this.ends[i - 1];
    const end = this.ends[i];
    if (start === end) return '';
    const b0 = Math.floor(start / BLOCK);
    const b1 = Math.floor((end - 1) / BLOCK);
    if (b0 === b1) return this.blocks[b0].toString('utf8', start - b0 * BLOCK, end - b0 * BLOCK);
    const parts: Buffer[] = [];
    for (let b = b0; b <= b1; b++) {
      const from = b === b0 ? start - b * BLOCK : 0;
      const to = b === b1 ? end - b * BLOCK : BLOCK;
      parts.push(this.blocks[b].subarray(from, to));
    }
    return Buffer.concat(parts).toString('utf8');
  }
}
