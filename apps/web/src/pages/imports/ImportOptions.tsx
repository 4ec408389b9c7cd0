/** Who owns the imported contacts, their tags, the lead vendor, and how the existing book is scrubbed. */
import type { OnMatch, ScrubKey } from '@harbor/shared';
import { Checkbox, Group, NativeSelect, SimpleGrid, TagsInput, TextInput } from '@mantine/core';
import type { ImportOptionsForm } from '../../api/imports';
import { OwnerSelect, PoolSelect } from '../../components/pickers';

export interface OptionsState {
  type: 'lead' | 'client';
  owner: string;
  pool: string;
  tags: string[];
  tagColor: string;
  scrubBy: string[];
  onMatch: OnMatch;
  updatedTags: string[];
  vendorName: string;
  vendorType: string;
}

export const initialOptions: OptionsState = {
  type: 'lead',
  owner: '',
  pool: '',
  tags: [],
  tagColor: 'blue',
  scrubBy: ['phone', 'email', 'medicare_number'],
  // Defaults never destroy data: a match only gets what it lacks (docs/decisions/import-matching-rules.md).
  onMatch: 'fill',
  updatedTags: [],
  vendorName: '',
  vendorType: 'lead',
};

const COLORS = ['blue', 'green', 'red', 'orange', 'yellow', 'teal', 'grape', 'gray'];

/** The form fields the server reads, from what the person picked. */
export function toForm(o: OptionsState): Partial<ImportOptionsForm> {
  return {
    type: o.type,
    owner: o.owner ? Number(o.owner) : undefined,
    pool: o.pool ? Number(o.pool) : undefined,
    tags: o.tags.map((name) => ({ name, color: o.tagColor })),
    updated_lead_tags: o.updatedTags.map((name) => ({ name, color: o.tagColor })),
    scrub_against: o.scrubBy.length ? { by: o.scrubBy as ScrubKey[], on_match: o.onMatch } : undefined,
    api_vendor_obj: o.vendorName.trim()
      ? { vendor_name: o.vendorName.trim(), vendor_type: o.vendorType || 'lead' }
      : undefined,
  };
}

export function ImportOptions(props: {
  value: OptionsState;
  onChange: (v: OptionsState) => void;
  canPickOwner: boolean;
}) {
  const v = props.value;
  const set = (patch: Partial<OptionsState>) => props.onChange({ ...v, ...patch });
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <NativeSelect
        label="Contact type"
        value={v.type}
        onChange={(e) => set({ type: e.currentTarget.value as 'lead' | 'client' })}
        data={[
          { value: 'lead', label: 'Leads' },
          { value: 'client', label: 'Clients' },
        ]}
      />
      {props.canPickOwner && (
        <OwnerSelect
          label="Owner"
          placeholder="You"
          description="Leave empty to own them yourself"
          value={v.owner ? Number(v.owner) : null}
          onChange={(id) => set({ owner: id ? String(id) : '' })}
        />
      )}
      <TagsInput
        label="Tags"
        placeholder="Type a tag and press Enter"
        value={v.tags}
        onChange={(tags) => set({ tags })}
      />
      <NativeSelect
        label="Tag color"
        value={v.tagColor}
        onChange={(e) => set({ tagColor: e.currentTarget.value })}
        data={COLORS}
      />
      <PoolSelect
        label="Pool"
        placeholder="No pool"
        value={v.pool ? Number(v.pool) : null}
        onChange={(id) => set({ pool: id ? String(id) : '' })}
      />
      <Group grow>
        <TextInput
          label="Lead vendor"
          value={v.vendorName}
          onChange={(e) => set({ vendorName: e.currentTarget.value })}
        />
        <TextInput
          label="Vendor type"
          value={v.vendorType}
          onChange={(e) => set({ vendorType: e.currentTarget.value })}
        />
      </Group>
      <Checkbox.Group
        label="Scrub against the existing book"
        value={v.scrubBy}
        onChange={(scrubBy) => set({ scrubBy })}
      >
        <Group mt="xs">
          <Checkbox value="phone" label="Phone" />
          <Checkbox value="email" label="Email" />
          <Checkbox value="medicare_number" label="Medicare number" />
          <Checkbox value="name_address" label="Name and address" />
        </Group>
      </Checkbox.Group>
      <NativeSelect
        label="When a contact already exists"
        description="Names, date of birth and Medicare number change only when the row is surely the same person"
        value={v.onMatch}
        onChange={(e) => set({ onMatch: e.currentTarget.value as OnMatch })}
        data={[
          { value: 'fill', label: 'Fill in its blank fields only' },
          { value: 'update', label: "Replace its values with the file's" },
          { value: 'skip', label: 'Leave it alone (skip the row)' },
        ]}
      />
      <TagsInput
        label="Tags for updated contacts"
        value={v.updatedTags}
        onChange={(updatedTags) => set({ updatedTags })}
      />
    </SimpleGrid>
  );
}
