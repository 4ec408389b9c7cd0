import { describe, expect, it } from 'vitest';
import {
  INITIAL_STATE,
  parseListState,
  savedFilterData,
  scopeOf,
  searchText,
  serializeListState,
  stateFromSaved,
} from './listUrlState';

describe('contacts list state in the address', () => {
  it('leaves defaults out, so the default list is a plain /contacts', () => {
    expect(serializeListState(INITIAL_STATE).toString()).toBe('');
    expect(parseListState(new URLSearchParams())).toEqual(INITIAL_STATE);
  });

  it('round-trips search, filters, view, sort, page and page size', () => {
    const state = {
      ...INITIAL_STATE,
      q: 'smith',
      filters: { status_id: ['3', '4'], tag_ids: ['7'], created_from: ['2026-01-01'], address: ['12 Main St, Apt 4'] },
      group: 'deleted' as const,
      poolId: 5,
      orderField: 'created_at',
      order: 'DESC' as const,
      page: 3,
      size: 100,
    };
    const params = serializeListState(state);
    expect(params.get('status_id')).toBe('3,4');
    expect(params.get('sort')).toBe('created_at');
    expect(params.get('order')).toBe('desc');
    expect(parseListState(new URLSearchParams(params.toString()))).toEqual(state);
  });

  it('ignores what it does not know and values it cannot use', () => {
    const s = parseListState(new URLSearchParams('view=nope&page=-2&size=9999&pool=abc&bogus=1&status_id='));
    expect(s).toEqual(INITIAL_STATE);
  });
});

describe('scope sent to the server', () => {
  it('drops empty filter entries (spec §5) and sends id lists as lists', () => {
    const scope = scopeOf({
      ...INITIAL_STATE,
      q: '  mar ',
      filters: { state: ['FL'], city: [''], status_id: ['2', '3'] },
    });
    expect(scope.search).toEqual([
      { field: 'state', value: ['FL'] },
      { field: 'status_id', value: ['2', '3'] },
    ]);
    expect(scope.q).toBe('mar');
    expect(scope).toMatchObject({ contact_group: 'all', pool_id: 'mine', order_field: 'last_name', order: 'ASC' });
  });

  it('asks for the duplicate lookup when finding duplicates', () => {
    expect(scopeOf({ ...INITIAL_STATE, duplicates: true })).toMatchObject({
      representer_type: 'duplicate_merge',
      duplicate: { is_duplicate: true },
    });
  });

  it('sends a phone number written any way as the digits phones are stored with', () => {
    expect(searchText('(305) 892-0000')).toBe('3058920000');
    expect(searchText('305-892-0000')).toBe('3058920000');
    expect(searchText('892-0000')).toBe('8920000');
    expect(searchText('+1 305 892 0000')).toBe('13058920000');
    expect(searchText('José Muñoz')).toBe('José Muñoz');
    expect(searchText('12')).toBe('12');
  });
});

describe('quick filters', () => {
  it('save the address of the view and read it back', () => {
    const state = { ...INITIAL_STATE, filters: { status_id: ['2'] }, page: 4 };
    const data = savedFilterData(state);
    expect(data.params).toBe('status_id=2');
    expect(stateFromSaved(data)).toEqual({ ...state, page: 1 });
  });

  it('read older saved filters in scope or screen-state shape', () => {
    expect(
      stateFromSaved({ search: [{ field: 'state', value: 'TX' }], order_field: 'created_at', order: 'DESC' }),
    ).toMatchObject({ filters: { state: ['TX'] }, orderField: 'created_at', order: 'DESC', group: 'all' });
    expect(
      stateFromSaved({ filters: [{ field: 'tag_ids', value: [3, 4] }], q: 'ann', group: 'deleted' }),
    ).toMatchObject({ filters: { tag_ids: ['3', '4'] }, q: 'ann', group: 'deleted' });
  });
});
