import { describe, expect, it } from 'vitest';
import { INITIAL_STATE, scopeOf, stateFromSaved } from './useContactsList';

describe('contacts list state', () => {
  it('drops empty filter entries before asking the server (spec §5)', () => {
    const scope = scopeOf(
      {
        ...INITIAL_STATE,
        filters: [
          { field: 'state', value: 'FL' },
          { field: 'city', value: '' },
          { field: 'tag_ids', value: [] },
          { field: 'zip', value: null },
        ],
      },
      '  mar ',
    );
    expect(scope.search).toEqual([{ field: 'state', value: 'FL' }]);
    expect(scope.q).toBe('mar');
    expect(scope).toMatchObject({ contact_group: 'all', pool_id: 'mine', order_field: 'last_name', order: 'ASC' });
  });

  it('asks for the duplicate lookup when finding duplicates', () => {
    expect(scopeOf({ ...INITIAL_STATE, duplicates: true }, '')).toMatchObject({
      representer_type: 'duplicate_merge',
      duplicate: { is_duplicate: true },
    });
  });

  it('reads saved filters in list-state or scope shape', () => {
    expect(
      stateFromSaved({ search: [{ field: 'state', value: 'TX' }], order_field: 'created_at', order: 'DESC' }),
    ).toMatchObject({
      filters: [{ field: 'state', value: 'TX' }],
      orderField: 'created_at',
      order: 'DESC',
      group: 'all',
    });
    expect(stateFromSaved({ ...INITIAL_STATE, q: 'ann', group: 'deleted' })).toMatchObject({
      q: 'ann',
      group: 'deleted',
    });
  });
});
