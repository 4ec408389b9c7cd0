/**
 * PATCH /v1/contacts/merge (spec §7): `kept_id` and `ids` as the spec's duplicate merge, plus `choices`: for each
 * field whose values differ, the contact whose value the kept contact takes (docs/decisions/contacts-export-and-merge.md).
 */
import { z } from 'zod';

/** The fields a person picks between when merging duplicates (everything else follows the kept contact). */
export const MERGE_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'phone_type',
  'secondary_phone',
  'date_of_birth',
  'gender',
  'language',
  'address',
  'address2',
  'city',
  'state',
  'zip',
  'county',
  'medicare_number',
  'part_a_effective',
  'part_b_effective',
  'status_id',
  'source_id',
  'category',
  'type',
  'note',
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

const id = z.coerce.number().int().positive();

export const MergeBody = z.object({
  kept_id: id,
  ids: z.array(id).min(1).max(50),
  /** Field -> the id of the contact (kept or merged) whose value to keep. Fields left out keep the kept contact's
   * value, or take a merged one's when the kept contact has none. */
  choices: z.partialRecord(z.enum(MERGE_FIELDS), id).default({}),
});
export type MergeBody = z.infer<typeof MergeBody>;

export const MergeReply = z.object({
  kept_id: z.number(),
  merged_ids: z.array(z.number()),
  /** What changed on the kept contact: {field: {from, to}}. */
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
