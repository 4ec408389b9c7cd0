import { describe, expect, it } from 'vitest';
import type { AttemptList } from '../../api/imports';
import { importFormData } from '../../api/imports';
import { initialOptions, toForm } from './ImportOptions';
import { applyProgress } from './ImportsPage';
import { progressText } from './watchImport';

const list: AttemptList = {
  data: [
    {
      id: 5,
      status: 'processing',
      kind: 'list',
      contact_type: 'lead',
      file_name: 'a.csv',
      file_size: 10,
      user: { id: 1, name: 'Ada' },
      owner_id: 1,
      total: 100,
      processed: 10,
      created: 10,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      failed: 0,
      error: null,
      result: {},
      created_at: '2026-01-01T00:00:00.000Z',
      finished_at: null,
    },
  ],
  meta: { current_page: 1, limit: 15, total_count: 1, total_pages: 1, counts: { all: 1 } },
};
const msg = {
  id: 5,
  status: 'completed' as const,
  file_name: 'a.csv',
  processed: 100,
  total: 100,
  created: 90,
  updated: 5,
  skipped: 3,
  failed: 2,
};

describe('live import progress', () => {
  it('updates the attempt with the message id, or adds it on the first page', () => {
    const updated = applyProgress(list, msg, true)!;
    expect(updated.data).toHaveLength(1);
    expect(updated.data[0]).toMatchObject({ id: 5, status: 'completed', created: 90, user: { name: 'Ada' } });
    const added = applyProgress(list, { ...msg, id: 6, status: 'processing' }, true)!;
    expect(added.data.map((a) => a.id)).toEqual([6, 5]);
    expect(applyProgress(list, { ...msg, id: 6 }, false)!.data.map((a) => a.id)).toEqual([5]);
  });

  it('words the process notification', () => {
    expect(progressText({ ...msg, status: 'processing', processed: 1500, total: 100000 })).toBe(
      'Importing a.csv: 1,500 of 100,000 rows',
    );
    expect(progressText(msg)).toBe('Imported a.csv: 90 created, 5 updated, 3 skipped, 2 invalid');
    expect(progressText({ ...msg, status: 'failed' })).toBe('Import of a.csv failed');
    expect(progressText({ ...msg, unchanged: 4 })).toBe(
      'Imported a.csv: 90 created, 5 updated, 4 unchanged, 3 skipped, 2 invalid',
    );
    expect(progressText({ ...msg, status: 'undoing', processed: 40 })).toBe(
      'Undoing the import of a.csv: 40 of 100 rows',
    );
    expect(progressText({ ...msg, status: 'undone' })).toBe('Undid the import of a.csv');
    expect(progressText({ ...msg, status: 'processing', processed: 0, total: 0, read: 120000 })).toBe(
      'Reading a.csv: 120,000 rows so far',
    );
  });
});

describe('the import form', () => {
  it('sends tags, scrub and vendor as the server reads them', () => {
    const form = toForm({ ...initialOptions, tags: ['March'], tagColor: 'green', vendorName: 'LeadCo', owner: '12' });
    expect(form).toMatchObject({
      type: 'lead',
      owner: 12,
      tags: [{ name: 'March', color: 'green' }],
      // A match fills blank fields only, by default (issue 8): nothing someone typed is replaced.
      scrub_against: { by: ['phone', 'email', 'medicare_number'], on_match: 'fill' },
      api_vendor_obj: { vendor_name: 'LeadCo', vendor_type: 'lead' },
    });
    const data = importFormData(new File(['a,b\n1,2\n'], 'list.csv'), { ...form, fields: { a: 'phone' } });
    expect(data.get('tags')).toBe('[{"name":"March","color":"green"}]');
    expect(data.get('fields')).toBe('{"a":"phone"}');
    expect(data.get('pool')).toBeNull();
    expect((data.get('file') as File).name).toBe('list.csv');
  });
});
