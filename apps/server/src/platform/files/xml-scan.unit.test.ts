import { describe, expect, it } from 'vitest';
import { FileRefused } from './limits.js';
import { attr, attrsOf, decodeEntities, XmlScanner } from './xml-scan.js';

/** Tokens of `xml` fed in chunks of `size` characters. */
function tokens(xml: string, size: number) {
  const out: string[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push(`"${text}"`);
    text = '';
  };
  const s = new XmlScanner({
    open: (name, raw, self) => {
      flush();
      out.push(`<${name}${raw ? ` ${JSON.stringify(attrsOf(raw))}` : ''}${self ? '/' : ''}>`);
    },
    close: (name) => {
      flush();
      out.push(`</${name}>`);
    },
    text: (t) => {
      text += t;
    },
  });
  for (let i = 0; i < xml.length; i += size) s.write(xml.slice(i, i + size));
  s.end();
  flush();
  return out;
}

describe('XmlScanner', () => {
  const XML = `<?xml version="1.0"?><!-- a > comment --><x:a x:r="1" t='b>c' s = "&amp;&lt;"><b/><c>A &amp; B&#233;&#x41;</c><![CDATA[<raw> & ]]></x:a>`;
  const WANT = ['<a {"r":"1","t":"b>c","s":"&<"}>', '<b/>', '</b>', '<c>', '"A & BéA"', '</c>', '"<raw> & "', '</a>'];
  it('gives the same tokens however the input is cut', () => {
    for (const size of [1, 2, 3, 7, 64, 10_000]) expect(tokens(XML, size), `chunks of ${size}`).toEqual(WANT);
  });
  it('reads one attribute fast, by local name, in any spelling', () => {
    expect(attr(' r="A1" s="3" t="s"', 't')).toBe('s');
    expect(attr(' sheetId="1" r:id="rId7"', 'id')).toBe('rId7');
    expect(attr(' sheetId="1"', 'Id')).toBeUndefined();
    expect(attr(" t='inlineStr'", 't')).toBe('inlineStr');
    expect(attr(' t = "n"', 't')).toBe('n');
    expect(decodeEntities('&unknown; &#0; &lt;')).toBe('&unknown;  <');
  });
  it('refuses a DOCTYPE, a cut-off tag and a tag too long to be real', () => {
    expect(() => tokens('<!DOCTYPE x [<!ENTITY a "b">]><x/>', 100)).toThrow(FileRefused);
    expect(() => tokens('<a><b attr="never closed', 100)).toThrow('cut short');
    expect(() => tokens(`<a b="${'x'.repeat(70_000)}`, 1000)).toThrow('too long');
  });
});
