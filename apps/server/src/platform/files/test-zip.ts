/**
 * Test helpers that write ZIP archives the way other software does, including the hostile kinds: entries stored or
 * deflated in any order, and huge repetitive entries (ZIP bombs, a 500 MB cell) written without ever holding them
 * in memory. A repeated unit is deflated once with a full flush, which makes its compressed bytes independent of
 * what came before, so they can be written again and again (the decoder sees one valid stream).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { crc32 } from './zip-writer.js';

export interface ZipPart {
  name: string;
  data?: Buffer | string;
  /** Huge content: `head`, then `unit` `times` times, then `tail`. */
  repeat?: { head?: string | Buffer; unit: string | Buffer; times: number; tail?: string | Buffer };
  store?: boolean;
  /** Lie about the unpacked size in the headers (what a crafted bomb does). */
  declaredSize?: number;
}

const buf = (v: string | Buffer | undefined) =>
  v === undefined ? Buffer.alloc(0) : Buffer.isBuffer(v) ? v : Buffer.from(v);
const flushed = (b: Buffer) => zlib.deflateRawSync(b, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });

function* bodyOf(p: ZipPart): Generator<{ packed: Buffer; plain: Buffer; times: number }> {
  if (p.repeat) {
    const head = buf(p.repeat.head);
    const unit = buf(p.repeat.unit);
    yield { packed: flushed(head), plain: head, times: 1 };
    yield { packed: flushed(unit), plain: unit, times: p.repeat.times };
    const tail = buf(p.repeat.tail);
    yield { packed: zlib.deflateRawSync(tail), plain: tail, times: 1 };
    return;
  }
  const data = buf(p.data);
  yield { packed: p.store ? data : zlib.deflateRawSync(data), plain: data, times: 1 };
}

/** Writes the archive to `file` (entries in the order given) and answers its size. */
export function writeZip(file: string, parts: ZipPart[]): number {
  const fd = fs.openSync(file, 'w');
  let offset = 0;
  const put = (b: Buffer) => {
    fs.writeSync(fd, b);
    offset += b.length;
  };
  const central: Buffer[] = [];
  try {
    for (const p of parts) {
      const name = Buffer.from(p.name, 'utf8');
      let crc = 0;
      let size = 0;
      let packed = 0;
      const chunks = [...bodyOf(p)];
      for (const c of chunks) {
        for (let i = 0; i < c.times; i++) crc = crc32(c.plain, crc);
        size += c.plain.length * c.times;
        packed += c.packed.length * c.times;
      }
      const method = p.store && !p.repeat ? 0 : 8;
      const declared = p.declaredSize ?? size;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(packed, 18);
      local.writeUInt32LE(declared, 22);
      local.writeUInt16LE(name.length, 26);
      const at = offset;
      put(Buffer.concat([local, name]));
      for (const c of chunks) for (let i = 0; i < c.times; i++) put(c.packed);
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0800, 8);
      h.writeUInt16LE(method, 10);
      h.writeUInt32LE(crc, 16);
      h.writeUInt32LE(packed, 20);
      h.writeUInt32LE(declared, 24);
      h.writeUInt16LE(name.length, 28);
      h.writeUInt32LE(at, 42);
      central.push(h, name);
    }
    const cd = Buffer.concat(central);
    const start = offset;
    put(cd);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(parts.length, 8);
    end.writeUInt16LE(parts.length, 10);
    end.writeUInt32LE(cd.length, 12);
    end.writeUInt32LE(start, 16);
    put(end);
    return offset;
  } finally {
    fs.closeSync(fd);
  }
}

/** The same archive in memory (small archives only). */
export function zipBuffer(parts: ZipPart[]): Buffer {
  const file = `${process.env.TMPDIR ?? '/tmp'}/harbor-zip-${process.pid}-${Math.random().toString(36).slice(2)}.zip`;
  try {
    writeZip(file, parts);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(file, { force: true });
  }
}
